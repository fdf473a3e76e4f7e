import FluidGradient

/// How close each file of a bundle comes to what it stands for: the 16-bit, dither-off
/// render at the display size of the same instants, the file decoded and scaled up
/// bilinearly as a player shows it.
struct BundleMeasurement {
    /// The instants measured, as frame indices: five spread over the loop, the first 0.
    let frames: [Int]
    /// The display-size references of those frames.
    private let references: [FrameSamples]

    /// Renders the references.
    ///
    /// - Parameters:
    ///   - preset: the loop at its display size.
    ///   - threads: threads that share each render.
    init(preset: Preset, threads: Int) {
        let count = preset.frameCount
        self.init(preset: preset, frames: Array(Set((0..<5).map { $0 * count / 5 })).sorted(), threads: threads)
    }

    /// Renders frame 0 alone, the reference of stills.
    ///
    /// - Parameters:
    ///   - still: the stills' preset at its display size.
    ///   - threads: threads that share the render.
    init(still: Preset, threads: Int) {
        self.init(preset: still, frames: [0], threads: threads)
    }

    private init(preset: Preset, frames: [Int], threads: Int) {
        self.frames = frames
        let animator = Animator(preset: preset)
        let renderer = FrameRenderer(spec: preset.frameSpec, threads: threads)
        var buffer = PixelBuffer(width: preset.width, height: preset.height, format: .rgba64le)
        references = frames.map { index in
            renderer.render(
                animator.scene(at: Double(index) / preset.fps), frameIndex: index, dither: false, into: &buffer)
            return FrameSamples(buffer)
        }
    }

    /// The instants measured, in seconds.
    func seconds(fps: Double) -> [Double] { frames.map { Double($0) / fps } }

    /// PSNR (from the mean squared error over every measured instant) and the largest
    /// error of `path`, a loop whose frame `i` shows instant `i`, or a still that shows
    /// frame 0 (``UpscaledError``: RGB, or premultiplied RGBA with `includeAlpha`).
    ///
    /// - Throws: a ``DecodeError`` when the file cannot be decoded, and
    ///   ``VideoError/endedEarly(path:frame:)`` when it ends early.
    func measure(_ path: String, isLoop: Bool, includeAlpha: Bool) throws -> (psnr: Double, largest: Double) {
        let set = try FrameSet(path: path)
        let wanted = isLoop ? frames : [0]
        var decoded: [FrameSamples] = []
        if let sequence = try set.openSequence() {
            var index = 0
            while decoded.count < wanted.count, let frame = try sequence.next() {
                if wanted[decoded.count] == index { decoded.append(frame) }
                index += 1
            }
        } else {
            decoded = [try set.load(.number(0))]
        }
        guard decoded.count == wanted.count else {
            throw VideoError.endedEarly(path: path, frame: wanted[decoded.count])
        }
        var error = UpscaledError()
        for (frame, reference) in zip(decoded, references) {
            error.add(UpscaledError(expected: reference, small: frame, includeAlpha: includeAlpha))
        }
        return (error.psnr, error.largest)
    }
}
