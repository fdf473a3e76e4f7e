import FluidGradient
import FluidGradientIO
import Testing

/// A batch manifest takes `grain` as it takes every preset key: in `defaults` and in each
/// palette, checked when the manifest is read.
@Suite struct BatchGrainTests {
    static func manifest(defaults: String, palette: String) -> String {
        """
        {
          "defaults": { \(defaults) },
          "palettes": [{ "name": "brand", "colors": ["#FF5F6D", "#FFC371"]\(palette) }],
          "sizes": ["64x36"],
          "formats": ["png"]
        }
        """
    }

    @Test func grainLayersLikeAnyKey() throws {
        let text = Self.manifest(
            defaults: "\"grain\": { \"amount\": 0.1, \"animated\": true }",
            palette: ", \"grain\": { \"amount\": 0.2 }")
        let manifest = try BatchManifest(json: Array(text.utf8), file: "m.json")
        let jobs = manifest.jobs(
            loadPreset: { _ in .failure(.unreadable("none")) }, loadPalette: { _ in .failure(.unreadable("none")) })
        // The entry's grain object replaces the defaults' whole.
        #expect(try jobs[0].preset.get().grain == Grain(amount: 0.2))
        let defaultsOnly = try BatchManifest(
            json: Array(
                Self.manifest(defaults: "\"grain\": { \"amount\": 0.1, \"animated\": true }", palette: "").utf8),
            file: "m.json")
        let job = defaultsOnly.jobs(
            loadPreset: { _ in .failure(.unreadable("none")) }, loadPalette: { _ in .failure(.unreadable("none")) })[0]
        #expect(try job.preset.get().grain == Grain(amount: 0.1, animated: true))
    }

    @Test func aBadGrainNamesItsPlace() {
        let text = Self.manifest(defaults: "\"grain\": { \"amount\": -1 }", palette: "")
        #expect {
            try BatchManifest(json: Array(text.utf8), file: "m.json")
        } throws: { error in
            "\(error)" == "m.json:2: defaults.grain.amount: -1 is outside the allowed range 0...1"
        }
    }
}
