import FluidGradient
import Foundation

/// How close two frames look to a designer matching a target: the colours each holds and where
/// they lie, not whether each pixel agrees. Blobs drift, so two frames of one palette rarely
/// agree pixel by pixel, and `compare`'s score (100·(1 − mean ΔE)) can rank a coral design above
/// a teal one against a teal target when both share its dark ground; this measure separates them.
///
/// Both frames are shown over black and averaged into a grid of cells (``cellsAcross`` across,
/// rows in proportion), each cell's mean colour taken to OKLab and weighted by ``weights``
/// (hue and chroma three times lightness: blobs that overlap vary in lightness, while their hues
/// are what a palette is recognised by):
///
/// - ``colours``: whether each frame's colours are found in the other, wherever they lie: for
///   each cell, the distance to the nearest cell colour of the other frame, averaged over the
///   cells, and the mean of the two directions.
/// - ``layout``: the mean weighted distance between the frames' colours in ``layoutCells``
///   blocks, so a light top and a dark bottom counts, but not a blob's exact place.
/// - ``score``: `100 / (1 + (d / scale)²)` with `d = 0.8·colours + 0.2·layout`: 100 for the same
///   colours in the same places, 50 at `d` = ``scale``.
struct LookMatch: Equatable, Sendable {
    /// Cells across the frame's width for the colour sets.
    static let cellsAcross = 48
    /// Blocks across and down for the layout.
    static let layoutCells = (across: 4, down: 3)
    /// The distance that scores 50, in weighted OKLab units.
    static let scale = 0.15
    /// The weights of OKLab's L, a and b.
    static let weights = SIMD3<Double>(0.5, 1.5, 1.5)

    /// 0...100: 100 for frames that look the same.
    let score: Double
    /// How far each frame's colours are from the other's nearest, in weighted OKLab units.
    let colours: Double
    /// The mean distance between the frames' block colours, in weighted OKLab units.
    let layout: Double

    /// Measures `actual` against `expected`, two frames of one size.
    init(expected: Frame, actual: Frame) {
        precondition(expected.width == actual.width && expected.height == actual.height, "frames of one size")
        let (width, height) = (expected.width, expected.height)
        let across = min(Self.cellsAcross, width)
        let down = max(1, min(height, Int((Double(across * height) / Double(width)).rounded())))
        let a = CellGrid(expected, across: across, down: down).cells.map { $0 * Self.weights }
        let b = CellGrid(actual, across: across, down: down).cells.map { $0 * Self.weights }
        colours = (Self.nearest(from: a, to: b) + Self.nearest(from: b, to: a)) / 2
        let blocks = (across: min(Self.layoutCells.across, width), down: min(Self.layoutCells.down, height))
        let coarseA = CellGrid(expected, across: blocks.across, down: blocks.down).cells
        let coarseB = CellGrid(actual, across: blocks.across, down: blocks.down).cells
        layout =
            zip(coarseA, coarseB).map { distance($0 * Self.weights, $1 * Self.weights) }.reduce(0, +)
            / Double(coarseA.count)
        let d = 0.8 * colours + 0.2 * layout
        score = 100 / (1 + (d / Self.scale) * (d / Self.scale))
    }

    /// The mean, over the colours of `a`, of the distance to the nearest colour of `b`.
    static func nearest(from a: [SIMD3<Double>], to b: [SIMD3<Double>]) -> Double {
        precondition(!a.isEmpty && !b.isEmpty, "two lists of colours")
        var total = 0.0
        for colour in a {
            var best = Double.infinity
            for other in b {
                let d = colour - other
                best = min(best, (d * d).sum())
            }
            total += best.squareRoot()
        }
        return total / Double(a.count)
    }
}

/// A frame shown over black and averaged into `across` × `down` cells, each cell's mean
/// sRGB-encoded colour in OKLab, row by row.
struct CellGrid {
    let cells: [SIMD3<Double>]

    init(_ frame: Frame, across: Int, down: Int) {
        let width = frame.width, height = frame.height, bytes = frame.bytes
        let sixteen = frame.depth == .sixteen
        var sums = [SIMD3<Double>](repeating: .zero, count: across * down)
        var counts = [Int](repeating: 0, count: across * down)
        for y in 0..<height {
            let row = (y * down / height) * across
            for x in 0..<width {
                let pixel = y * width + x
                let rgba = sixteen ? Self.sample16(bytes, pixel) : Self.sample8(bytes, pixel)
                let cell = row + x * across / width
                sums[cell] += SIMD3(rgba.x, rgba.y, rgba.z) * rgba.w
                counts[cell] += 1
            }
        }
        cells = zip(sums, counts).map { oklab($0 / Double(max(1, $1))) }
    }

    private static func sample8(_ bytes: [UInt8], _ pixel: Int) -> SIMD4<Double> {
        SIMD4(
            Double(bytes[4 * pixel]), Double(bytes[4 * pixel + 1]), Double(bytes[4 * pixel + 2]),
            Double(bytes[4 * pixel + 3])) / 255
    }

    private static func sample16(_ bytes: [UInt8], _ pixel: Int) -> SIMD4<Double> {
        let value = { (lane: Int) in
            Double(UInt16(bytes[8 * pixel + 2 * lane]) | UInt16(bytes[8 * pixel + 2 * lane + 1]) << 8)
        }
        return SIMD4(value(0), value(1), value(2), value(3)) / 65535
    }
}

/// The Euclidean distance of two OKLab colours.
func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }

/// An sRGB-encoded colour (0...1 each) in OKLab (Björn Ottosson's matrices).
func oklab(_ srgb: SIMD3<Double>) -> SIMD3<Double> {
    func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    let r = linear(srgb.x), g = linear(srgb.y), b = linear(srgb.z)
    let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    return SIMD3(
        0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
        1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
        0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
}
