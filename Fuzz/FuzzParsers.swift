// A libFuzzer entry point for the parsers that read outside text: preset files, batch
// manifests, palette files and fills. Built by Scripts/fuzz.sh, never by SwiftPM.
//
// FLUIDGRADIENT_FUZZ_PARSER picks the parser (preset, manifest, palette or fill), so each
// keeps a corpus of its own kind. A crash, a sanitizer report or a broken property below
// is a finding; an error thrown for bad input is the expected outcome.
import FluidGradient
import FluidGradientIO

#if canImport(Glibc)
import Glibc
#endif

/// The parsers the target can drive.
enum FuzzedParser: String {
    case preset, manifest, palette, fill

    /// Parses `bytes`, checks what a successful parse promises, and renders any error's
    /// message (the code users see).
    func exercise(_ bytes: [UInt8]) {
        switch self {
        case .preset: exercisePreset(bytes)
        case .manifest:
            do {
                _ = try BatchManifest(json: bytes, file: "fuzz.json")
            } catch {
                _ = error.description
            }
        case .palette:
            do {
                _ = try PaletteFile.colors(bytes, file: "fuzz.txt")
            } catch {
                _ = error.description
            }
        case .fill:
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try Fill(parsing: text)
            } catch {
                _ = error.description
            }
        }
    }

    /// A preset that parses must survive its own encoding: read back, it encodes to the same
    /// text. (Text, not `==`: a gradient's stop ids record the order stops were given in.)
    private func exercisePreset(_ bytes: [UInt8]) {
        let preset: Preset
        do {
            preset = try Preset(json: bytes, file: "fuzz.json")
        } catch {
            _ = error.description
            return
        }
        do {
            let again = try Preset(json: Array(preset.jsonText.utf8), file: "encoded.json")
            if again.jsonText != preset.jsonText {
                fatalError("a preset changed through its own encoding:\n\(preset.jsonText)\n\(again.jsonText)")
            }
        } catch {
            fatalError("a parsed preset's own encoding was refused: \(error.description)\n\(preset.jsonText)")
        }
    }
}

/// Set once by `LLVMFuzzerInitialize`, before any input is run.
nonisolated(unsafe) private var parser = FuzzedParser.preset

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> Int32 {
    let name = getenv("FLUIDGRADIENT_FUZZ_PARSER").map { String(cString: $0) } ?? "preset"
    guard let chosen = FuzzedParser(rawValue: name) else {
        fputs("FLUIDGRADIENT_FUZZ_PARSER must be preset, manifest, palette or fill, not \(name)\n", stderr)
        exit(2)
    }
    parser = chosen
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    parser.exercise(bytes)
    return 0
}
