import Foundation

/// Everything about a frame except its blobs: size, blur, edges, background and grain.
package struct FrameSpec: Hashable, Sendable {
    package var width: Int
    package var height: Int
    /// The blur exponent `e` (the preset's `blur`).
    package var blurExponent: Double
    /// The point scale `p`: 1 for a plain screen, 2 imitates Retina.
    package var pointScale: Double
    package var edges: EdgeMode
    package var background: Fill
    /// The space the frame is written in; every colour is brought into it.
    package var colorSpace: ColorSpace
    /// The space the layers are composited and blurred in.
    package var mixingSpace: MixingSpace
    /// The grain laid over the frame after the background (DESIGN section 12); nil for none.
    package var grain: GrainField?

    package init(
        width: Int,
        height: Int,
        blurExponent: Double = 0.75,
        pointScale: Double = 1,
        edges: EdgeMode = .bleed,
        background: Fill = .color(.black),
        colorSpace: ColorSpace = .srgb,
        mixingSpace: MixingSpace = .srgb,
        grain: GrainField? = nil
    ) {
        self.width = width
        self.height = height
        self.blurExponent = blurExponent
        self.pointScale = pointScale
        self.edges = edges
        self.background = background
        self.colorSpace = colorSpace
        self.mixingSpace = mixingSpace
        self.grain = grain
    }

    /// The conversions between the frame's encoded values and its mixing space.
    package var mixing: Mixing { Mixing(mixingSpace, frame: colorSpace) }

    /// `σ = p · (min(W, H) / p) ^ e` pixels, the original's `blur(radius: pow(min side, blur))`
    /// measured in points and converted to pixels.
    package var sigma: Double {
        FrameSpec.sigma(width: width, height: height, exponent: blurExponent, pointScale: pointScale)
    }

    package static func sigma(width: Int, height: Int, exponent: Double, pointScale: Double = 1) -> Double {
        pointScale * pow(Double(min(width, height)) / pointScale, exponent)
    }

    /// Whether some pixel can come out less than opaque. With an opaque background
    /// every pixel is opaque, whatever the blobs do.
    package var hasTransparency: Bool { !background.isOpaque }
}
