import FluidGradient
import Foundation

/// A random scene of `count` base blobs and `highlights` highlight blobs, drawn as in
/// DESIGN section 3 from fixed colour lists.
func randomScene(seed: UInt64, count: Int = 6, highlights: Int = 2, width: Int, height: Int) -> Scene {
    let palette = ["#0F766E", "#14B8A6", "#6D28D9", "#1D4ED8", "#22D3EE", "#F97316", "#FDE047", "#BE185D"]
    let highlightPalette = ["#A7F3D0", "#F0ABFC", "#FFFFFF", "#FEF08A"]
    var generator = SplitMix64(seed: seed)
    func blob(_ hex: String) -> Blob {
        let placement = BlobPlacement.random(
            &generator, ranges: BlobRanges(), aspectRatio: Double(width) / Double(height))
        return Blob(
            color: try! RGBA(parsing: hex), center: placement.center, radius: placement.radius,
            opacity: placement.opacity)
    }
    return Scene(
        base: (0..<count).map { blob(palette[$0 % palette.count]) },
        highlights: (0..<highlights).map { blob(highlightPalette[$0 % highlightPalette.count]) })
}

/// Largest and mean absolute difference, in 8-bit levels, between a rendered frame
/// (8 or 16 bits) and the reference, over every channel of every pixel.
///
/// With an alpha channel the comparison is on premultiplied values (colour × alpha):
/// a straight colour under an alpha near zero is arbitrary and invisible.
func errorAgainstReference(_ buffer: PixelBuffer, _ reference: FloatImage) -> (
    max: Double, mean: Double, worst: (x: Int, y: Int)
) {
    var largest = 0.0, total = 0.0, worst = (x: 0, y: 0)
    let hasAlpha = buffer.format.hasAlpha
    let channels = hasAlpha ? 4 : 3
    let scale = buffer.format.bitDepth == 16 ? 65535.0 : 255.0
    for y in 0..<buffer.height {
        for x in 0..<buffer.width {
            let samples = buffer.channels(x: x, y: y).map { Double($0) / scale }
            let expected = reference[x, y]
            let alpha = hasAlpha ? samples[3] : 1
            for lane in 0..<channels {
                let actual = lane == 3 ? alpha : samples[lane] * alpha
                let difference = abs(actual - expected[lane]) * 255
                total += difference
                if difference > largest {
                    largest = difference
                    worst = (x, y)
                }
            }
        }
    }
    return (largest, total / Double(buffer.width * buffer.height * channels), worst)
}

/// Built-in preset files, read from `Presets/` in the repository: the engine's tests
/// do not depend on the output module that embeds them.
enum PresetFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Presets")

    static var builtInNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func builtIn(_ name: String) throws -> Preset {
        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name + ".json")))
        return try Preset(json: bytes, file: name + ".json")
    }
}

/// A blob placed at random with a random colour of alpha 0.6 to 1.
func randomTranslucentBlob(_ generator: inout SplitMix64) -> Blob {
    let placement = BlobPlacement.random(&generator, ranges: BlobRanges(), aspectRatio: 1.5)
    let color = RGBA(
        red: generator.nextUnit(), green: generator.nextUnit(), blue: generator.nextUnit(),
        alpha: 0.6 + 0.4 * generator.nextUnit())
    return Blob(color: color, center: placement.center, radius: placement.radius, opacity: placement.opacity)
}

/// The absolute value of each lane.
func abs<V: SIMD>(_ v: V) -> V where V.Scalar: FloatingPoint { v.replacing(with: -v, where: v .< .zero) }
