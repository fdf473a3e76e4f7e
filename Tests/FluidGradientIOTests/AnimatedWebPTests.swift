import FluidGradientIO
import Testing

@Suite struct AnimatedWebPTests {
    /// A RIFF chunk, padded to an even size.
    private func chunk(_ type: String, _ content: [UInt8]) -> [UInt8] {
        Array(type.utf8) + (0..<4).map { UInt8(truncatingIfNeeded: content.count >> (8 * $0)) } + content
            + (content.count % 2 == 1 ? [0] : [])
    }

    private func threeBytes(_ value: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    private func webp(frames: [(x: Int, width: Int)], flags: UInt8 = 0) -> [UInt8] {
        let header = chunk("VP8X", [0x12, 0, 0, 0] + threeBytes(63) + threeBytes(35))
        let animation = frames.map { frame in
            chunk(
                "ANMF",
                threeBytes(frame.x / 2) + threeBytes(0) + threeBytes(frame.width - 1) + threeBytes(35) + threeBytes(33)
                    + [flags]
                    + chunk("VP8 ", [1, 2, 3]))
        }
        let body = Array("WEBP".utf8) + header + chunk("ANIM", [0, 0, 0, 0, 0, 0]) + animation.joined()
        return Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: body.count >> (8 * $0)) } + body
    }

    /// Every frame gets "do not blend" (bit 1 of its flags), whatever its other flags; nothing else changes.
    @Test(arguments: [UInt8(0), 1, 0b10])
    func everyFrameReplacesTheCanvas(flags: UInt8) throws {
        let original = webp(frames: [(0, 64), (0, 64), (0, 64)], flags: flags)
        var bytes = original
        try AnimatedWebP.replaceCanvasEachFrame(&bytes)
        let changed = bytes.indices.filter { bytes[$0] != original[$0] }
        #expect(changed.count == (flags & 0b10 == 0 ? 3 : 0))
        for index in changed { #expect(bytes[index] == original[index] | 0b10) }
    }

    @Test func framesThatDoNotCoverTheCanvasAreRefused() {
        var offset = webp(frames: [(0, 64), (2, 62)])
        #expect(throws: FinishingFailure.partialFrame(1)) {
            try AnimatedWebP.replaceCanvasEachFrame(&offset)
        }
        var still = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WEBP".utf8)
        #expect(throws: FinishingFailure.noAnimationFrames) {
            try AnimatedWebP.replaceCanvasEachFrame(&still)
        }
        var png = [UInt8](repeating: 0x89, count: 16)
        #expect(throws: FinishingFailure.notWebP) {
            try AnimatedWebP.replaceCanvasEachFrame(&png)
        }
    }
}
