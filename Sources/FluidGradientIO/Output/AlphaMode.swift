import FluidGradient

/// What a render does with the frame's alpha, where the frame has transparency (`--alpha`).
public enum AlphaMode: String, CaseIterable, Sendable {
    /// Outputs that keep alpha keep it; the others drop it with a note.
    case auto
    /// Refuse an output that cannot keep alpha.
    case keep
    /// Write an `.mp4` in the stacked layout for the web bundle's player: colour above
    /// alpha, at twice the height.
    case stacked

    /// Refuses what this mode cannot do with `target`, before anything is written.
    ///
    /// - Parameters:
    ///   - target: where the frames go.
    ///   - hasTransparency: whether the frames have transparency.
    ///   - height: the frame's height; the stacked layout needs it even, so that no 4:2:0
    ///     chroma sample mixes the colour half with the alpha half.
    ///   - rawFormat: the pixel format of raw output, if `target` is ``OutputTarget/raw``.
    /// - Throws: ``OutputError`` naming what would keep the alpha.
    package func check(
        target: OutputTarget, hasTransparency: Bool, height: Int, rawFormat: PixelFormat = .rgba
    ) throws {
        switch (self, target) {
        case (.auto, _):
            return
        case (.keep, .video(let path, let container)) where !container.keepsAlpha:
            throw OutputError.alphaNotKept(path: path, container: container.rawValue)
        case (.keep, .raw) where !rawFormat.hasAlpha:
            throw OutputError.rawFormatWithoutAlpha(format: rawFormat.rawValue)
        case (.keep, _):
            return
        case (.stacked, .video(let path, .mp4)):
            guard hasTransparency else {
                throw OutputError.nothingToStack(path: path)
            }
            guard height % 2 == 0 else {
                throw OutputError.oddStackedHeight(height: height)
            }
        case (.stacked, _):
            throw OutputError.stackedNeedsMP4
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
