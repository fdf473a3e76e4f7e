import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// `webpData(at:)` and `avifData(at:)` are the bundle's poster encodes: at instant 0 and
/// the display size, the bytes of `render --bundle`'s `poster.webp` and `poster.avif`.
@Suite struct StillImageTests {
    static let loop = [
        "render", "--preset", "aurora", "--size", "192x108", "--fps", "10", "--duration", "0.5", "--loop",
    ]

    @Test(arguments: [false, true])
    func aStillIsTheBundlesPosterByteForByte(transparent: Bool) throws {
        let scratch = Scratch()
        let directory = scratch.file("web")
        let result = run(Self.loop + (transparent ? ["--background", "transparent"] : []) + ["--bundle", directory])
        #expect(result.status == 0, "\(result.stderr)")
        var preset = try Preset(builtIn: "aurora")
        (preset.width, preset.height, preset.fps, preset.duration, preset.loop) = (192, 108, 10, 0.5, true)
        if transparent { preset.background = .color(.clear) }
        let webp = try Data(contentsOf: URL(fileURLWithPath: directory + "/poster.webp"))
        let avif = try Data(contentsOf: URL(fileURLWithPath: directory + "/poster.avif"))
        #expect(try preset.webpData(at: 0) == webp)
        #expect(try preset.avifData(at: 0, threads: 3) == avif)
    }

    /// Another instant and size: a file of that size, the same bytes every time, and a
    /// different image from instant 0's.
    @Test func aStillHasTheSizeAndInstantAskedFor() throws {
        let scratch = Scratch()
        let preset = try Preset(builtIn: "sunset")
        let webp = try preset.webpData(at: 1.5, width: 160, height: 90)
        #expect(try preset.webpData(at: 1.5, width: 160, height: 90, threads: 2) == webp)
        #expect(try preset.webpData(at: 0, width: 160, height: 90) != webp)
        let avif = try preset.avifData(at: 1.5, width: 128, height: 72)
        for (name, bytes, width) in [("a.webp", webp, "160"), ("a.avif", avif, "128")] {
            try bytes.write(to: URL(fileURLWithPath: scratch.file(name)))
            #expect(probe(scratch.file(name), countFrames: false)["width"] == width, "\(name)")
        }
    }

    /// `keepingLook`: a 1920x1080 design as a 640x360 WebP is the WebP of the design with
    /// a third of its point scale, and a 1280x720 one of point scale 2.5 as a 128x72 AVIF is
    /// that of point scale 0.25; a point scale scaled below 0.25 is rendered, not refused.
    @Test func aStillKeepingTheLookHasTheScaledPointScale() throws {
        var preset = try Preset(builtIn: "sunset")
        (preset.width, preset.height) = (1920, 1080)
        var third = preset
        (third.width, third.height, third.pointScale) = (640, 360, 1.0 / 3)
        #expect(try preset.webpData(at: 1.5, width: 640, height: 360, keepingLook: true) == third.webpData(at: 1.5))
        _ = try preset.webpData(at: 1.5, width: 160, height: 90, keepingLook: true)
        (preset.width, preset.height, preset.pointScale) = (1280, 720, 2.5)
        var quarter = preset
        (quarter.width, quarter.height, quarter.pointScale) = (128, 72, 0.25)
        #expect(try preset.avifData(at: 1.5, width: 128, height: 72, keepingLook: true) == quarter.avifData(at: 1.5))
        preset.pointScale = 1
        _ = try preset.avifData(at: 1.5, width: 128, height: 72, keepingLook: true)
    }

    @Test func aSizeOrInstantTheEncoderCannotTakeThrows() throws {
        let preset = try Preset(builtIn: "ocean")
        for (time, width, height, key) in [(-1.0, 64, 64, "time"), (0, 0, 64, "size")] {
            do {
                _ = try preset.webpData(at: time, width: width, height: height)
                Issue.record("\(time) s at \(width)x\(height) was encoded")
            } catch .preset(let error) {
                #expect(error.keyPath == key)
            } catch {
                Issue.record("\(error)")
            }
        }
        // AV1 takes even sides of at least 64 pixels.
        for (width, height) in [(32, 18), (65, 64)] {
            do {
                _ = try preset.avifData(at: 0, width: width, height: height)
                Issue.record("\(width)x\(height) was encoded")
            } catch .output(.videoTooSmall(_, "AV1", 32, 18, 64, 64)), .output(.oddVideoSize(_, "AV1", 65, 64)) {
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
