import FluidGradient
import FluidGradientIO
import Foundation
import Testing

@Suite struct BundleManifestTests {
    /// Sorted keys and rounded measures: the same bundle gives the same bytes, and a
    /// lossless file's infinite PSNR is spelled out rather than failing the encoding.
    @Test func theJSONIsStableAndTakesAnInfinitePSNR() throws {
        let file = BundleManifest.File(
            file: "poster.png", role: "poster", type: "image/png", codec: "png", bitDepth: 8, bytes: 10,
            width: 4, height: 2, psnr: .infinity, largestError: 0.123456)
        let manifest = BundleManifest(
            generator: "fluidgradient test", displayWidth: 4, displayHeight: 2, encodedWidth: 4, encodedHeight: 2,
            fps: 30, frames: 1, transparent: false, measuredAt: [0], files: [file])
        let text = String(decoding: manifest.json(), as: UTF8.self)
        #expect(text.contains("\"psnr\" : \"Infinity\""))
        #expect(text.contains("\"largestError\" : 0.123"))
        #expect(text.firstRange(of: "\"displayHeight\"")!.lowerBound < text.firstRange(of: "\"files\"")!.lowerBound)
        #expect(manifest.json() == manifest.json())
        #expect(!text.contains("colorSpace"))
        let p3 = BundleManifest(
            generator: "fluidgradient test", displayWidth: 4, displayHeight: 2, encodedWidth: 4, encodedHeight: 2,
            fps: 30, frames: 1, transparent: false, colorSpace: .displayP3, measuredAt: [0], files: [file])
        #expect(String(decoding: p3.json(), as: UTF8.self).contains("\"colorSpace\" : \"display-p3\""))
    }
}
