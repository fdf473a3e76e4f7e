import Foundation
import Testing

/// `batch` with the bundle format: a bundle directory per palette and size, skipped when
/// up to date as any other output is.
@Suite(.serialized) struct BatchBundleTests {
    static let manifest = """
        {
          "output": "out/{name}-{size}.{ext}",
          "defaults": { "fps": 10, "duration": 1, "loop": true },
          "palettes": [{ "preset": "default" }],
          "sizes": ["640x360"],
          "formats": ["bundle", "webp"]
        }
        """

    @Test func aManifestMakesBundlesAndASecondRunSkipsThem() throws {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch, manifest: Self.manifest)
        let (first, report) = try BatchCommandTests.batch([manifest])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(report.statuses() == ["rendered", "rendered"])
        let bundle = scratch.file("out/default-640x360.bundle")
        let data = try Data(contentsOf: URL(fileURLWithPath: bundle + "/manifest.json"))
        let parsed = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(parsed["encodedWidth"] as? Int == 320 && parsed["displayWidth"] as? Int == 640)
        #expect(FileManager.default.fileExists(atPath: bundle + "/index.html"))
        #expect(FileManager.default.fileExists(atPath: scratch.file("out/default-640x360.webp")))
        let (_, again) = try BatchCommandTests.batch([manifest])
        #expect(again.statuses() == ["skipped", "skipped"])
    }
}
