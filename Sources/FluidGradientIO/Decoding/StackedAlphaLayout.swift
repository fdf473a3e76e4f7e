import FluidGradient

/// How a video's frames are laid out: plain, or the stacked-alpha layout (``StackedAlpha``)
/// whose first H rows are the colour premultiplied by alpha (the frame over black) and
/// whose last H rows are the alpha as grey, for codecs without an alpha channel.
package enum VideoLayout: String, CaseIterable, Sendable {
    /// Stacked when the file's global `comment` tag says so, else plain.
    case auto
    /// Stacked, tag or no tag.
    case stacked
    /// Plain, tag or no tag: the stacked frames as they are stored.
    case plain
}

/// Reading the stacked-alpha layout back into RGBA frames, as the web player does.
enum StackedAlphaLayout {
    /// The W×H frame that a stacked frame holds: the colour in its first H rows, the
    /// alpha in its last H rows (``StackedAlpha``).
    ///
    /// The alpha is the BT.709 luma of the alpha rows' pixel (0.2126 R + 0.7152 G +
    /// 0.0722 B): grey has no chroma, and whatever chroma a codec adds cancels in these
    /// weights. The colour rows hold premultiplied colour, which cannot exceed its alpha: it is
    /// clamped to the alpha (a player's premultiplied blend would add the excess as light),
    /// then divided by it, so that ``FrameSamples/premultiplied(x:y:)`` gives the clamped
    /// colour back. Where the alpha is 0 the colour is 0: nothing shows there.
    ///
    /// - Parameters:
    ///   - stacked: the decoded frame, opaque, of even height.
    ///   - contentHeight: H, at most half the stacked frame's height.
    /// - Returns: the recombined frame, straight alpha, H rows.
    static func recombine(_ stacked: FrameSamples, contentHeight: Int) -> FrameSamples {
        precondition(
            stacked.height % 2 == 0 && contentHeight > 0 && 2 * contentHeight <= stacked.height,
            "a stacked frame has an even height of two halves")
        let width = stacked.width, height = contentHeight
        let alphaStart = width * (stacked.height - height)
        let luma = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)
        var values = [Float](repeating: 0, count: 4 * width * height)
        stacked.values.withUnsafeBufferPointer { source in
            for pixel in 0..<(width * height) {
                let top = 4 * pixel, bottom = 4 * (pixel + alphaStart)
                let grey = SIMD4(source[bottom], source[bottom + 1], source[bottom + 2], 0)
                let alpha = min(max((grey * luma).sum(), 0), 1)
                guard alpha > 0 else { continue }
                for lane in 0..<3 { values[top + lane] = min(max(source[top + lane], 0), alpha) / alpha }
                values[top + 3] = alpha
            }
        }
        return FrameSamples(width: width, height: height, values: values)
    }
}
