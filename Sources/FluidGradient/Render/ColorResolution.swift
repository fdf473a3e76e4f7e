extension Scene {
    /// The scene with every blob's colour as `space` writes it: gamma-encoded, inside its
    /// gamut (CSS Color 4's gamut mapping). The renderers draw this scene; an sRGB frame
    /// of sRGB colours draws the scene as it is.
    ///
    /// - Parameter space: The frame's colour space.
    /// - Returns: The scene with its blob colours in `space`.
    package func resolvingColors(in space: ColorSpace) -> Scene {
        guard needsResolution(in: space) else { return self }
        func resolved(_ blobs: [Blob]) -> [Blob] {
            blobs.map { blob in
                var blob = blob
                blob.color = blob.color.inColorSpace(space)
                return blob
            }
        }
        return Scene(base: resolved(base), highlights: resolved(highlights))
    }

    /// Whether some blob has a colour `space` does not take as it is.
    private func needsResolution(in space: ColorSpace) -> Bool {
        space != .srgb || base.contains { !$0.color.isInsideSRGB } || highlights.contains { !$0.color.isInsideSRGB }
    }
}
