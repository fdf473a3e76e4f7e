import FluidGradient
import FluidGradientIO
import Foundation
import SystemPackage
import Testing

@Suite struct PresetLibraryTests {
    static let presetsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Presets")

    /// `Presets/` is the single source of truth: the embedded copies are its bytes.
    @Test func builtInCopiesEqualThePresetFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.presetsDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(PresetLibrary.names == files.map { String($0.dropLast(5)) })
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: Self.presetsDirectory.appendingPathComponent(file)))
            #expect(PresetLibrary.builtInBytes(String(file.dropLast(5))) == bytes, "\(file)")
        }
        #expect(PresetLibrary.names.contains(PresetLibrary.defaultName))
    }

    @Test func loadsByNameOrPath() throws {
        #expect(try PresetLibrary.load("aurora").name == "aurora")
        let path = Self.presetsDirectory.appendingPathComponent("ocean.json").path
        #expect(try PresetLibrary.load(path).name == "ocean")
        #expect(throws: UnknownPresetError(name: "auroraa", among: PresetLibrary.names)) {
            try PresetLibrary.load("auroraa")
        }
        #expect(
            UnknownPresetError(name: "auroraa", among: PresetLibrary.names).description
                == "there is no built-in preset \"auroraa\" (did you mean \"aurora\"?); `fluidgradient presets list` "
                + "shows them, or give a path to a .json file")
        // Nothing within two edits: no suggestion.
        #expect(UnknownPresetError(name: "nosuch", among: PresetLibrary.names).suggestion == nil)
        #expect(throws: UnknownPresetError(name: "Ocaen", among: PresetLibrary.names)) { try Preset(builtIn: "Ocaen") }
        #expect(UnknownPresetError(name: "Ocaen", among: PresetLibrary.names).suggestion == "ocean")
        #expect(
            throws: FileError.cannotRead(path: "/nonexistent/x.json", what: "preset", errno: .noSuchFileOrDirectory)
        ) {
            try PresetLibrary.load("/nonexistent/x.json")
        }
        #expect(
            FileError.cannotRead(path: "/nonexistent/x.json", what: "preset", errno: .noSuchFileOrDirectory).description
                == "cannot read preset /nonexistent/x.json: no such file")
    }
}
