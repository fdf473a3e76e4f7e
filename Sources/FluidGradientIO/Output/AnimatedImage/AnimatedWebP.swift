/// Makes each frame of an animated WebP replace the canvas instead of blending onto it.
///
/// ffmpeg's webp muxer writes every frame whole but leaves its blending method at
/// "alpha-blend onto the previous canvas" (WebP container, ANMF: the B bit clear). An
/// opaque frame covers what was there either way, but a translucent one would show
/// every earlier frame through it: measured, alpha 61 levels off by the last frame of a
/// 1 s loop. Setting B ("do not blend") on a frame that covers the whole canvas shows it
/// as it was encoded. Nothing moves, so no size or offset changes.
package enum AnimatedWebP {
    /// Sets "do not blend" on every frame of `bytes`, an animated WebP whose frames each
    /// cover the canvas; a still WebP stays as it is.
    package static func replaceCanvasEachFrame(_ bytes: inout [UInt8]) throws(FinishingFailure) {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else {
            throw FinishingFailure.notWebP
        }
        var offset = 12
        var canvas: (width: Int, height: Int)?
        var frames = 0
        var animated = false
        var hasImage = false
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = littleEndian(bytes, at: offset + 4, width: 4)
            let content = offset + 8
            guard content + size <= bytes.count else {
                throw FinishingFailure.truncatedChunk(type)
            }
            if type == "ANIM" { animated = true }
            if type == "VP8 " || type == "VP8L" { hasImage = true }
            if type == "VP8X", size >= 10 {
                canvas = (
                    littleEndian(bytes, at: content + 4, width: 3) + 1,
                    littleEndian(bytes, at: content + 7, width: 3) + 1
                )
            } else if type == "ANMF", size >= 16, let canvas {
                // X and Y offsets (in 2-pixel units), width − 1, height − 1, duration, then the flags.
                let whole =
                    littleEndian(bytes, at: content, width: 6) == 0
                    && littleEndian(bytes, at: content + 6, width: 3) + 1 == canvas.width
                    && littleEndian(bytes, at: content + 9, width: 3) + 1 == canvas.height
                guard whole else { throw FinishingFailure.partialFrame(frames) }
                bytes[content + 15] |= 0b10
                frames += 1
            }
            // Chunks are padded to an even size.
            offset = content + size + size % 2
        }
        // One frame is a still WebP (an image, no ANIM chunk): nothing to blend onto.
        guard frames > 0 || (!animated && hasImage) else { throw FinishingFailure.noAnimationFrames }
    }

    /// The little-endian unsigned integer of `width` bytes at `offset`.
    static func littleEndian(_ bytes: [UInt8], at offset: Int, width: Int) -> Int {
        (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
}
