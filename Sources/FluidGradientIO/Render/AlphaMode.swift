import FluidGradient

/// What a render does with the frame's alpha (`--alpha`).
package enum AlphaMode: String, CaseIterable, Sendable {
    /// Outputs that keep alpha keep it; the others drop it with a note.
    case auto
    /// Refuse an output that cannot keep alpha.
    case keep
    /// Write an `.mp4` in the stacked layout (``StackedAlpha``) for the web player.
    case stacked

    /// Refuses what this mode cannot do with `target`, before anything is written.
    ///
    /// - Parameters:
    ///   - target: where the frames go.
    ///   - hasTransparency: whether the frames have transparency.
    ///   - height: the frame's height; the stacked layout needs it even, so that no 4:2:0
    ///     chroma sample mixes the colour half with the alpha half.
    ///   - rawFormat: the pixel format of raw output, if `target` is ``OutputTarget/raw``.
    /// - Throws: ``CommandError/Kind/input`` naming what would keep the alpha.
    package func check(
        target: OutputTarget, hasTransparency: Bool, height: Int, rawFormat: PixelFormat = .rgba
    ) throws(CommandError) {
        switch (self, target) {
        case (.auto, _):
            return
        case (.keep, .video(let path, let container)) where !container.keepsAlpha:
            throw CommandError.input(
                "--alpha keep: \(path) cannot keep alpha (\(container.alphaLoss)); write \(AlphaMode.keepingOutputs), "
                    + "or an .mp4 with --alpha stacked (colour above alpha, recombined on a web page by the player)")
        case (.keep, .raw) where !rawFormat.hasAlpha:
            throw CommandError.input(
                "--alpha keep: raw \(rawFormat.rawValue) frames have no alpha; use --pixel-format rgba or rgba64le")
        case (.keep, _):
            return
        case (.stacked, .video(let path, .mp4)):
            guard hasTransparency else {
                throw CommandError.input(
                    "--alpha stacked: the frames are opaque, so there is no alpha to stack into \(path); give a "
                        + "transparent background (--background transparent) or --edges transparent, or leave out "
                        + "--alpha stacked")
            }
            guard height % 2 == 0 else {
                throw CommandError.input(
                    "--alpha stacked: the height must be even so that no 4:2:0 chroma sample mixes colour and alpha, "
                        + "but it is \(height); use \(height + 1)")
            }
        case (.stacked, _):
            throw CommandError.input(
                "--alpha stacked writes an .mp4 (colour above alpha, twice the height); for other outputs use "
                    + "--alpha auto: \(AlphaMode.keepingOutputs) keep alpha as it is")
        }
    }

    /// The outputs that keep alpha, for messages: ".mov, .webm or PNG".
    static var keepingOutputs: String {
        VideoContainer.allCases.filter(\.keepsAlpha).map { "." + $0.rawValue }.joined(separator: ", ") + " or PNG"
    }
}

extension VideoContainer {
    /// Whether the container keeps a frame's alpha as it is; those that do not need the
    /// stacked layout (.mp4) or cut it (.gif).
    package var keepsAlpha: Bool { self != .mp4 && self != .gif }

    /// Why this container loses alpha, for messages.
    var alphaLoss: String {
        self == .gif ? "a GIF pixel is opaque or clear" : "an .\(rawValue) video has no alpha channel"
    }
}
