import FluidGradient
import Foundation
import Testing

/// The rasteriser's shortcuts for cells one or two rims cross — the chord between a
/// rim's coverage 0 and 1, and the bilinear surface through four corners with the
/// coverages' product averaged — against averaging the composite over every sample.
/// Both are exact where they apply, and a pattern is let through only if the composite
/// at coverage ¼, ½ and ¾ (for two rims, at every quarter point of the square of
/// coverages) lies within 10⁻⁴ of the shortcut, so the cells
/// agree to about that (0.03 levels); leaving out the product term (the rims'
/// covariance) is off by far more.
@Suite struct RimShortcutTests {
    /// Each scene, and whether its cells take the shortcuts (along an S, every pattern
    /// must fall back to sampling, so nothing differs there).
    static let scenes: [(name: String, root: Layer, takesShortcuts: Bool)] = {
        var generator = SplitMix64(seed: 5)
        func blob() -> Blob { randomTranslucentBlob(&generator) }
        var nested = Layer(
            name: "root",
            sublayers: BlendMode.allCases.map { mode in
                Layer(
                    name: "\(mode)", blendMode: mode,
                    sublayers: [
                        Layer(name: "a", content: .blob(blob())),
                        Layer(name: "b", blendMode: mode, content: .blob(blob())),
                    ])
            })
        nested.layout(in: LayerRect(width: 600, height: 400))
        return [
            (
                "random scene with overlay highlights",
                randomScene(seed: 21, count: 8, highlights: 3, width: 600, height: 400).rootLayer(
                    width: 600, height: 400), true
            ),
            ("every blend mode, nested", nested, true),
        ]
            + [BlendMode.darken, .lighten, .hardLight, .softLight].map {
                (
                    "the last blob in a group closed by \($0)", lastBlobInAGroup(closedBy: $0, width: 600, height: 400),
                    true
                )
            }
            + [
                ("a darken group inside a lighten group", darkenInsideLighten(width: 600, height: 400), false),
                (
                    "a darken group inside a lighten group, over a hidden blob's rim",
                    darkenInsideLighten(width: 600, height: 400, hiddenRim: true), false
                ),
            ]
    }()

    /// Along the blue blob's rim the inner group runs from red to blue, `(1 − c, 0.2, c)`;
    /// darken onto `(0.75, 0.2, 0.75)` and lighten onto `(0.25, 0.2, 0.25)` clamp red and
    /// blue to [0.25, 0.75], with kinks at c = ¼ and ¾: an S whose middle lies on the chord
    /// from c = 0 to 1, so that only a check away from the middle sees the bend.
    ///
    /// With `hiddenRim`, a blob under everything has its rim beside the blue one's: the
    /// composite does not depend on its coverage, so the cells it crosses have two rims
    /// and the S runs along the edges of their square of coverages.
    static func darkenInsideLighten(width: Int, height: Int, hiddenRim: Bool = false) -> Layer {
        laidOut(
            width: width, height: height,
            (hiddenRim ? [blob(0, 1, 0, center: [0.56, 0.5], radius: [0.25, 0.3])] : []) + [
                blob(0.25, 0.2, 0.25, center: [0.5, 0.5], radius: [1, 1]),
                Layer(
                    name: "outer", blendMode: .lighten,
                    sublayers: [
                        blob(0.75, 0.2, 0.75, center: [0.5, 0.5], radius: [1, 1]),
                        redBlueGroup(name: "inner", closedBy: .darken),
                    ]),
            ])
    }

    /// A blue blob whose rim runs over a red one, in a group closed by `mode`.
    static func redBlueGroup(name: String, closedBy mode: BlendMode) -> Layer {
        Layer(
            name: name, blendMode: mode,
            sublayers: [
                blob(1, 0.2, 0, center: [0.5, 0.5], radius: [0.45, 0.45]),
                blob(0, 0.2, 1, center: [0.55, 0.5], radius: [0.25, 0.3]),
            ])
    }

    /// A root holding `sublayers`, laid out at `width × height`.
    static func laidOut(width: Int, height: Int, _ sublayers: [Layer]) -> Layer {
        var root = Layer(name: "root", sublayers: sublayers)
        root.layout(in: LayerRect(width: Double(width), height: Double(height)))
        return root
    }

    /// An opaque blob layer of colour `(red, green, blue)`.
    static func blob(_ red: Double, _ green: Double, _ blue: Double, center: SIMD2<Double>, radius: SIMD2<Double>)
        -> Layer
    {
        Layer(
            name: "blob",
            content: .blob(
                Blob(color: RGBA(red: red, green: green, blue: blue, alpha: 1), center: center, radius: radius)))
    }

    /// A blue blob whose rim runs over a red one, the two grouped and the group blended
    /// onto dark grey: the blue blob is the last one present wherever its rim is. Along the
    /// rim the group's colour runs from red to blue, and `min`, `max` and the light
    /// blends switch branch on the way, so the composite is not affine in the blue
    /// blob's coverage there even though no blob follows it.
    static func lastBlobInAGroup(closedBy mode: BlendMode, width: Int, height: Int) -> Layer {
        laidOut(
            width: width, height: height,
            [
                blob(0.3, 0.3, 0.3, center: [0.5, 0.5], radius: [1, 1]),
                redBlueGroup(name: "group", closedBy: mode),
            ])
    }

    @Test(arguments: RimShortcutTests.scenes.indices, [0.4, 0.6])
    func shortcutsMatchSamplingEveryRim(scene: Int, exponent: Double) {
        let root = Self.scenes[scene].root
        let grid = WorkingGrid(spec: FrameSpec(width: 600, height: 400, blurExponent: exponent))
        let fast = grid.cellAverages(of: root, edges: .bleed)
        let sampled = grid.cellAverages(of: root, edges: .bleed, options: RasterOptions(samplesEveryRim: true))
        var largest: Float = 0, differing = 0
        for (a, b) in zip(fast, sampled) {
            let d = a - b
            let difference = max(max(abs(d.x), abs(d.y)), max(abs(d.z), abs(d.w)))
            largest = max(largest, difference)
            if difference > 0 { differing += 1 }
        }
        #expect(grid.cellSize > 4, "the scene must be rasterised on a reduced grid")
        if Self.scenes[scene].takesShortcuts {
            #expect(differing > 100, "the shortcuts must be taken: only \(differing) cells changed")
        }
        #expect(largest <= 2e-4, "\(Self.scenes[scene].name): largest difference \(largest)")
    }
}
