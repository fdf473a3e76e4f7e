import FluidGradient
import Foundation

/// What a bundle's page needs to lay its grain (``BundleGrain``) over the loop.
package struct PageGrain: Sendable, Equatable {
    /// A cell's side in CSS pixels, at one CSS pixel a frame pixel: DESIGN's `c`.
    package var cell: Double
    package var animated: Bool
    /// The loop's frame rate, which animated grain steps at.
    package var fps: Double

    package init(cell: Double, animated: Bool, fps: Double) {
        self.cell = cell
        self.animated = animated
        self.fps = fps
    }
}

extension BundlePage {
    /// The overlay over an opaque loop and its poster: one element over both, blended by
    /// CSS's overlay inside the block (`isolation`), so nothing outside it is touched.
    /// Animated grain steps its sprite up a phase each frame; reduced motion shows the
    /// still tile, phase 0, which over the poster is the engine's frame 0.
    var grainStyle: String {
        guard let grain, player == nil else { return "" }
        let tile = css(256 * grain.cell), spriteSide = css(Double(BundleGrain.spriteCells) * grain.cell)
        let sprite = css(Double(BundleGrain.spriteCells * GrainField.phaseCount) * grain.cell)
        var lines = [
            "  .fluidgradient { isolation: isolate; }",
            "  .fluidgradient > .grain {",
            "    position: absolute; inset: 0; pointer-events: none; mix-blend-mode: overlay;",
            "    background: url(\"\(BundleGrain.tileFile)\") 0 0 / \(tile) \(tile) repeat; image-rendering: pixelated;",
            "  }",
        ]
        if grain.animated {
            let seconds = String(format: "%.6g", Double(GrainField.phaseCount) / grain.fps)
            lines += [
                "  .fluidgradient > .grain {",
                "    background-image: url(\"\(BundleGrain.spriteFile)\"); background-size: \(spriteSide) \(sprite);",
                "    animation: fluidgradient-grain \(seconds)s steps(\(GrainField.phaseCount)) infinite;",
                "  }",
                "  @keyframes fluidgradient-grain { to { background-position: 0 -\(sprite); } }",
                "  @media (prefers-reduced-motion: reduce) {",
                "    .fluidgradient > .grain {",
                "      animation: none; background-image: url(\"\(BundleGrain.tileFile)\"); "
                    + "background-size: \(tile) \(tile);",
                "    }",
                "  }",
            ]
        }
        return "\n" + lines.joined(separator: "\n")
    }

    /// The overlay's element, last in the block so it lies over the video and the poster.
    var grainElement: String {
        grain != nil && player == nil ? "\n  <div class=\"grain\" aria-hidden=\"true\"></div>" : ""
    }

    /// The player's `grain` option, for a transparent loop: the player lays the same tile in
    /// its shader, on the unpremultiplied colour, at the page's display size.
    var playerGrainOption: String? {
        guard let grain, player != nil else { return nil }
        let sprite = grain.animated ? "'\(BundleGrain.spriteFile)'" : "null"
        return "grain: { tile: '\(BundleGrain.tileFile)', sprite: \(sprite), spriteCells: "
            + "\(BundleGrain.spriteCells), cell: \(number(grain.cell)), fps: \(number(grain.fps)), "
            + "width: \(width), height: \(height) }"
    }

    private func css(_ pixels: Double) -> String { number(pixels) + "px" }

    private func number(_ value: Double) -> String { ParameterRange.format(value) }
}
