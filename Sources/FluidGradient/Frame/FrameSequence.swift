/// Frames of a preset in order, rendered one at a time as they are asked for: the
/// frames `fluidgradient render` writes to a PNG sequence or a video.
///
/// Frame `i` shows the instant `i / fps`. Iterating renders each frame when it is reached,
/// reusing the renderer's working memory, so a long sequence costs one frame's memory
/// at a time, plus the frames kept. Make one with
/// ``Preset/frames(in:width:height:depth:dither:threads:)``.
///
/// ```swift
/// for frame in try preset.frames(width: 640, height: 360) {
///     try send(frame.pngData())
/// }
/// ```
public struct FrameSequence: Sequence, Sendable {
    let preset: Preset
    let indices: Range<Int>
    let depth: Frame.Depth
    let dither: Bool
    let threads: Int

    /// Renders the sequence's frames in order.
    public struct Iterator: IteratorProtocol {
        let maker: FrameMaker
        var indices: Range<Int>.Iterator

        /// Renders the next frame.
        ///
        /// - Returns: The frame, or nil after the last.
        public mutating func next() -> Frame? {
            guard let index = indices.next() else { return nil }
            return maker.frame(at: Double(index) / maker.preset.fps, ditherIndex: index)
        }
    }

    /// Starts rendering from the first frame.
    ///
    /// - Returns: An iterator that renders one frame each time it is asked.
    public func makeIterator() -> Iterator {
        Iterator(
            maker: FrameMaker(preset: preset, depth: depth, dither: dither, threads: threads),
            indices: indices.makeIterator())
    }

    /// The number of frames.
    public var underestimatedCount: Int { indices.count }
}

extension Preset {
    /// The frames of the animation, rendered as they are iterated: the frames
    /// `fluidgradient render` writes to a PNG sequence or a video, pixel for pixel.
    ///
    /// Any range renders the same frames as the whole run does, so frames can be split
    /// between tasks or machines.
    ///
    /// - Parameters:
    ///   - indices: The frames to render, counted from 0; all ``frameCount`` frames of
    ///     the preset's ``duration`` when left out.
    ///   - width: The frames' width in pixels; the preset's ``width`` when left out.
    ///   - height: The frames' height in pixels; the preset's ``height`` when left out.
    ///   - depth: The bits per channel of the samples.
    ///   - dither: Whether 8-bit samples are dithered (the default), each frame with its
    ///     own pattern.
    ///   - threads: How many threads share each frame; the pixels do not depend on it.
    /// - Returns: The frames, to iterate.
    /// - Throws: ``PresetError`` naming the key at fault when the preset or the size is out
    ///   of bounds, or when a frame's instant is past 86400 seconds.
    public func frames(
        in indices: Range<Int>? = nil, width: Int? = nil, height: Int? = nil, depth: Frame.Depth = .eight,
        dither: Bool = true, threads: Int = 1
    ) throws(PresetError) -> FrameSequence {
        let indices = indices ?? 0..<frameCount
        let last = max(indices.lowerBound, indices.upperBound - 1)
        let times = [indices.lowerBound, last].map { Double($0) / fps }
        let sized = try checked(width: width, height: height, times: times)
        return FrameSequence(preset: sized, indices: indices, depth: depth, dither: dither, threads: threads)
    }
}
