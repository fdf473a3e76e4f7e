extension Layer {
    /// The tree with every blob's colour as `space` writes it: gamma-encoded, inside its
    /// gamut (CSS Color 4's gamut mapping). The renderers draw this tree; an sRGB frame
    /// of sRGB colours draws the tree as it is.
    ///
    /// - Parameter space: The frame's colour space.
    /// - Returns: The tree with its blob colours in `space`.
    package func resolvingColors(in space: ColorSpace) -> Layer {
        guard needsResolution(in: space) else { return self }
        var layer = self
        if case .blob(var blob) = content {
            blob.color = blob.color.inColorSpace(space)
            layer.content = .blob(blob)
        }
        layer.sublayers = sublayers.map { $0.resolvingColors(in: space) }
        return layer
    }

    /// Whether some blob of the tree has a colour `space` does not take as it is.
    private func needsResolution(in space: ColorSpace) -> Bool {
        if space != .srgb { return true }
        if case .blob(let blob) = content, !blob.color.isInsideSRGB { return true }
        return sublayers.contains { $0.needsResolution(in: space) }
    }
}
