import FluidGradient
import FluidGradientIO
import Foundation
import SystemPackage
import Testing

@Suite struct OutputTargetTests {
    @Test func picksTheFormatFromTheName() throws {
        #expect(try OutputTarget(parsing: "a/b.png") == .png("a/b.png"))
        #expect(try OutputTarget(parsing: "clip.MP4") == .video("clip.MP4", .mp4))
        #expect(try OutputTarget(parsing: "x.mov") == .video("x.mov", .mov))
        #expect(try OutputTarget(parsing: "x.webm") == .video("x.webm", .webm))
        #expect(try OutputTarget(parsing: "x.gif") == .video("x.gif", .gif))
        #expect(try OutputTarget(parsing: "-") == .raw)
        #expect(try OutputTarget(parsing: "frames/%05d.png") == .pngSequence(FramePattern("frames/%05d.png")))
        #expect(throws: OutputError.unknownKind(path: "x.mkv")) { try OutputTarget(parsing: "x.mkv") }
        #expect(throws: OutputError.patternNotPNG(path: "frames/%05d.mp4")) {
            try OutputTarget(parsing: "frames/%05d.mp4")
        }
    }

    @Test func formatsFrameNumbers() throws {
        #expect(try FramePattern("f/%05d.png").path(frame: 42) == "f/00042.png")
        #expect(try FramePattern("f/%d.png").path(frame: 7) == "f/7.png")
        #expect(try FramePattern("f/100%%-%03d.png").path(frame: 7) == "f/100%-007.png")
        #expect(try FramePattern("f/%05d.png").path(frame: 123_456) == "f/123456.png")
        for bad in ["f/%s.png", "f/%d-%d.png", "f/%05x.png", "f/100%.png"] {
            #expect(throws: OutputError.self) { try FramePattern(bad) }
        }
    }
}
