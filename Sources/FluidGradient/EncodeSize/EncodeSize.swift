/// The size a video or animated image is encoded at, for a player to scale up to the
/// display size (DESIGN section 10, "Encode size").
///
/// The encoded frames are rendered directly at this size, with the point scale divided by
/// the same factor as the sides, so σ shrinks with them and the picture is the same.
package struct EncodeSize: Equatable, Sendable {
    /// Why this size.
    package enum Reason: Equatable, Sendable {
        /// Asked for (`full` or `WxH`).
        case requested
        /// Chosen by `auto`: a bilinear upscale stays within `bound` levels (a bound, not a
        /// measurement) of the full-size render.
        case blur(bound: Double)
        /// `auto` kept the full size: even the largest smaller size would stray more than
        /// ``EncodeSize/budget`` levels.
        case blurTooSmall
        /// `auto` kept the full size: clamp edges repeat the outermost pixels, which lie
        /// elsewhere in a smaller frame, so its borders are another picture.
        case clampEdges
        /// `auto` kept the full size: the background has a hard stop or is a conic
        /// gradient, detail no smaller frame holds.
        case backgroundDetail
        /// `auto` kept the full size: no smaller size has the same aspect ratio with whole,
        /// even sides.
        case noSmallerSize
        /// `auto` kept the full size: grain (DESIGN section 12) is detail the blur does not
        /// soften, a cell of a pixel or a few, which no smaller frame holds. A bundle ships
        /// the grain beside a grain-free loop instead (``Preset/withoutGrain``).
        case grain
    }

    package var width: Int
    package var height: Int
    package var reason: Reason

    package init(width: Int, height: Int, reason: Reason) {
        self.width = width
        self.height = height
        self.reason = reason
    }

    /// The largest error `auto` allows its bound, in 8-bit levels: DESIGN's 1 level less a
    /// margin for the renderer's own approximation (DESIGN section 1), which is not quite the
    /// same picture at two sizes. Against the reference renderer, the two sizes' upscaled
    /// differences were measured up to 0.4 levels apart inside the frame, where the bound's
    /// terms are near zero; at the corner where the bound is reached, the fast path stays
    /// within it (the hand-built worst corner measures 0.90 to 0.98 of the bound).
    package static let budget = 0.9

    /// The whole factors `k` that divide both sides into even sides (4:2:0 video halves
    /// them again), smallest first; empty when there is none.
    package static func factors(width: Int, height: Int) -> [Int] {
        guard min(width, height) >= 4 else { return [] }
        return (2...(min(width, height) / 2)).filter { k in
            width % k == 0 && height % k == 0 && (width / k) % 2 == 0 && (height / k) % 2 == 0
        }
    }

    /// The bound on the largest error of encoding `preset` `k` times smaller, in 8-bit levels:
    /// ``UpscaleErrorBound``'s terms for the blurred layer, the background and their product.
    package static func bound(for preset: Preset, factor k: Double) -> Double {
        let sigma = preset.frameSpec.sigma, (width, height) = (preset.width, preset.height)
        let contrast = SceneContrast.span(
            background: preset.background, base: preset.blobs?.map(\.color) ?? preset.colors,
            highlights: preset.highlightBlobs?.map(\.color) ?? preset.highlights)
        return UpscaleErrorBound.blurred(sigma: sigma, contrast: contrast, factor: k)
            + UpscaleErrorBound.background(preset.background, width: width, height: height, factor: k)
            + UpscaleErrorBound.cross(preset.background, width: width, height: height, sigma: sigma, factor: k)
    }

    /// What `auto` picks for `preset` at its own size: the smallest size `W/k × H/k`, `k` one
    /// of ``factors(width:height:)``, whose bound stays within ``budget``; the full size
    /// when there is none, with the reason.
    package static func automatic(for preset: Preset) -> EncodeSize {
        let full = { (reason: Reason) in EncodeSize(width: preset.width, height: preset.height, reason: reason) }
        if preset.edges == .clamp { return full(.clampEdges) }
        if preset.grain.isOn { return full(.grain) }
        let factors = factors(width: preset.width, height: preset.height)
        guard !factors.isEmpty else { return full(.noSmallerSize) }
        if UpscaleErrorBound.background(preset.background, width: preset.width, height: preset.height, factor: 2)
            == .infinity
        {
            return full(.backgroundDetail)
        }
        guard let k = factors.last(where: { bound(for: preset, factor: Double($0)) <= budget }) else {
            return full(.blurTooSmall)
        }
        let reason = Reason.blur(bound: bound(for: preset, factor: Double(k)))
        return EncodeSize(width: preset.width / k, height: preset.height / k, reason: reason)
    }

    /// Whether this is the preset's own size.
    package func isFullSize(of preset: Preset) -> Bool { width == preset.width && height == preset.height }
}

extension Preset {
    /// This preset with no grain: a bundle's loop, whose page lays the grain over it, and
    /// whose encode size is this preset's.
    package var withoutGrain: Preset {
        var plain = self
        plain.grain = Grain()
        return plain
    }
}

extension Preset {
    /// This preset at `size`, which has its aspect ratio: the sides replaced and the point
    /// scale multiplied by the same factor, so that σ scales with the sides and the picture
    /// is the same (DESIGN section 5: `σ = p·(min(W, H)/p)^e`).
    package func rendered(at size: EncodeSize) -> Preset { lookingAlike(width: size.width, height: size.height) }

    /// This preset at `width`×`height` as it looks there, as if its frame were scaled to that
    /// size: the sides replaced and the point scale multiplied by `min(width, height)` over
    /// `min(self.width, self.height)`, so that σ scales with the shorter side.
    ///
    /// When the aspect ratio is the preset's, the factor is computed as `width / self.width`,
    /// the same ratio but rounded otherwise, as ``rendered(at:)`` scales for an encode size,
    /// so that a frame shown at an encode size has the bytes of the frame encoded there.
    /// The point scale is not held to ``PresetLimits/pointScale``: a much smaller size takes
    /// a smaller one, a larger size a larger one.
    ///
    /// - Parameters:
    ///   - width: The new width in pixels.
    ///   - height: The new height in pixels.
    /// - Returns: The preset at that size.
    package func lookingAlike(width: Int, height: Int) -> Preset {
        let sameAspect = width * self.height == height * self.width
        let (new, old) = sameAspect ? (width, self.width) : (min(width, height), min(self.width, self.height))
        var scaled = self
        scaled.pointScale = pointScale * Double(new) / Double(old)
        scaled.width = width
        scaled.height = height
        return scaled
    }
}
