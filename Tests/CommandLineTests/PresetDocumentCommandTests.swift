import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// The library's normalized preset text and engine version are the command's own: what a
/// service hashes to name a frame is what the command prints.
@Suite struct PresetDocumentCommandTests {
    @Test func theEngineVersionIsWhatVersionPrints() {
        let result = run(["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == Preset.engineVersion + "\n")
    }

    @Test(arguments: Preset.builtInNames)
    func theJSONTextIsWhatPresetsShowPrints(name: String) throws {
        let result = run(["presets", "show", name, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let preset = try Preset(builtIn: name)
        #expect(result.stdoutText == preset.jsonText)
        #expect(try Preset(json: result.stdout, file: "stdout") == preset)
    }
}
