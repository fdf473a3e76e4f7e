import FluidGradient
import FluidGradientIO
import Foundation
import SystemPackage
import Testing

/// `isInputError(_:)`: the caller's input (the command's status 2) against a failure to
/// render or write (3), as a service must tell a bad request from its own failure.
@Suite struct ErrorBlameTests {
    @Test func inputsAreTheCallersAndFailuresAreNot() {
        let inputs: [any Error] = [
            PresetError(file: "request", path: [.key("speed")], reason: .missingColors),
            OutputError.oddVideoSize(path: "x.avif", codec: "AV1", width: 65, height: 64),
            FileError.notAFileURL(url: "https://example.invalid/x.mp4", what: "video"),
            PNGError.cannotDecode(path: "PNG data", message: "Not a PNG file"),
            DecodeError.missing(path: "x.png"),
        ]
        let failures: [any Error] = [
            VideoError.ffmpegNotFound(need: .videoOutput), VideoError.wroteNothing(path: "x.mp4"),
            FileError.cannotWrite(path: "x.mp4", errno: .noSpace),
            PNGError.cannotEncode(message: "out of memory"),
        ]
        for error in inputs { #expect(isInputError(error), "\(error)") }
        for error in failures { #expect(!isInputError(error), "\(error)") }
        #expect(!isInputError(VideoError.stopped(path: "x.mp4")))
        #expect(!isInputError(CocoaError(.fileReadUnknown)))
    }

    /// What the library throws for sizes an encoder refuses, and for bytes that are not a
    /// PNG, is the caller's.
    @Test func refusedSizesAndImagesAreInputErrors() throws {
        let preset = try #require(Preset.builtIn("ocean"))
        for (width, height) in [(65, 64), (32, 18), (0, 64)] {
            do {
                _ = try preset.avifData(at: 0, width: width, height: height)
                Issue.record("\(width)x\(height) was encoded")
            } catch {
                #expect(isInputError(error), "\(error)")
            }
        }
        #expect(throws: PNGError.self) { try Frame(pngData: Data("no".utf8)) }
        do {
            _ = try Frame(pngData: Data("no".utf8))
        } catch {
            #expect(isInputError(error))
        }
    }
}
