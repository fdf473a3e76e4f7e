import FluidGradient
import FluidGradientIO
import Foundation
import SystemPackage
import Testing

/// `FluidGradientError.isInputError`: the caller's input (the command's status 2) against a
/// failure to render or write (3), as a service must tell a bad request from its own failure.
@Suite struct InputErrorTests {
    static let inputs: [any FluidGradientError] = [
        PresetError(file: "request", path: [.key("speed")], reason: .missingColors),
        OutputError.oddVideoSize(path: "x.avif", codec: "AV1", width: 65, height: 64),
        FileError.notAFileURL(url: "https://example.invalid/x.mp4", what: "video"),
        FileError.brokenLink(path: "x.png", errno: .noSuchFileOrDirectory),
        PNGError.cannotDecode(path: "PNG data", message: "Not a PNG file"),
        DecodeError.missing(path: "x.png"),
        UnknownPresetError(name: "auroa", among: ["aurora"]),
        PaletteError.countOutOfRange(count: 17, allowed: 1...16),
        GradientError.tooFewStops(1),
    ]
    static let failures: [any FluidGradientError] = [
        VideoError.ffmpegNotFound(need: .videoOutput), VideoError.wroteNothing(path: "x.mp4"),
        FileError.cannotWrite(path: "x.mp4", errno: .noSpace), FileError.standardOutput(frames: 2, errno: .brokenPipe),
        PNGError.cannotEncode(message: "out of memory"), InterruptionError(leftBehind: .partialOutputRemoved),
    ]

    @Test func inputsAreTheCallersAndFailuresAreNot() {
        for error in Self.inputs { #expect(error.isInputError, "\(error)") }
        for error in Self.failures { #expect(!error.isInputError, "\(error)") }
    }

    /// Wrapped in a ``RenderError``, an error keeps its blame and its words.
    @Test func aRenderErrorIsWhatItWraps() {
        // A render throws neither a preset name, a palette's count nor a gradient edit.
        for error in Self.inputs + Self.failures
        where !(error is DecodeError || error is UnknownPresetError || error is PaletteError || error is GradientError)
        {
            let wrapped = RenderError(error, path: "x.mp4")
            #expect(wrapped.isInputError == error.isInputError && wrapped.description == error.description)
        }
        // A file the library wrote itself that cannot be read back is its failure, not the caller's.
        let readBack = RenderError(DecodeError.ffmpegCannotDecode(path: "w/loop.mp4", stderrTail: "x"), path: "w")
        #expect(!readBack.isInputError)
        #expect(
            readBack
                == .video(.cannotReadBack(path: "w", detail: "cannot read w/loop.mp4: ffmpeg could not decode it (x)")))
        #expect(
            RenderError(CancellationError(), path: "x")
                == .interrupted(InterruptionError(leftBehind: .partialOutputRemoved)))
    }

    /// What the library throws for sizes an encoder refuses, and for bytes that are not a
    /// PNG, is the caller's.
    @Test func refusedSizesAndImagesAreInputErrors() throws {
        let preset = try Preset(builtIn: "ocean")
        for (width, height) in [(65, 64), (32, 18), (0, 64)] {
            do {
                _ = try preset.avifData(at: 0, width: width, height: height)
                Issue.record("\(width)x\(height) was encoded")
            } catch {
                #expect(error.isInputError, "\(error)")
            }
        }
        #expect(throws: PNGError.self) { try Frame(pngData: Data("no".utf8)) }
        do {
            _ = try Frame(pngData: Data("no".utf8))
        } catch {
            #expect(error.isInputError)
        }
    }
}
