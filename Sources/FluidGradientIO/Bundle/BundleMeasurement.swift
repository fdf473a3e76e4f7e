import FluidGradient

/// How close each file of a bundle comes to what it stands for: the 16-bit, dither-off
/// render at the display size of the same instants, the file decoded and scaled up
/// bilinearly as a player shows it.
package struct BundleMeasurement: Sendable {
    /// What a file's measurement found.
    package struct Result: Sendable {
        /// PSNR in dB, from the mean squared error over every measured instant.
        package var psnr: Double
        /// The largest error in 8-bit levels.
        package var largest: Double
        /// The most banding any instant adds (``BandingDifference/added``), or nil when not measured.
        package var banding: Double?

        package init(psnr: Double, largest: Double, banding: Double? = nil) {
            self.psnr = psnr
            self.largest = largest
            self.banding = banding
        }
    }

    /// The instants measured, as frame indices of the loop, ascending.
    let frames: [Int]
    /// The display-size references of those frames.
    private let references: [FrameSamples]
    /// The references' own banding indices (``BandingIndex``), when banding is measured.
    private let referenceBanding: [Double]?

    /// Renders the references of five instants spread over the loop, the first 0.
    ///
    /// - Parameters:
    ///   - preset: the loop at its display size.
    ///   - threads: threads that share each render.
    ///   - banding: whether files are also measured for banding.
    init(preset: Preset, threads: Int, banding: Bool = true) {
        let count = preset.frameCount
        self.init(
            preset: preset, frames: Array(Set((0..<5).map { $0 * count / 5 })).sorted(), threads: threads,
            banding: banding)
    }

    /// Renders frame 0 alone, the reference of stills, measured for banding too.
    ///
    /// - Parameters:
    ///   - still: the stills' preset at its display size.
    ///   - threads: threads that share the render.
    init(still: Preset, threads: Int) {
        self.init(preset: still, frames: [0], threads: threads, banding: true)
    }

    /// Renders the references of `frames`, ascending frame indices of the loop.
    ///
    /// - Parameters:
    ///   - preset: the loop at its display size.
    ///   - frames: the instants, ascending.
    ///   - threads: threads that share each render.
    ///   - banding: whether files are also measured for banding.
    package init(preset: Preset, frames: [Int], threads: Int, banding: Bool) {
        self.frames = frames
        let animator = Animator(preset: preset)
        let renderer = FrameRenderer(spec: preset.frameSpec, threads: threads)
        var buffer = PixelBuffer(width: preset.width, height: preset.height, format: .rgba64le)
        references = frames.map { index in
            renderer.render(
                animator.scene(at: Double(index) / preset.fps), frameIndex: index, dither: false, into: &buffer)
            return FrameSamples(buffer)
        }
        referenceBanding = banding ? references.map(BandingIndex.of) : nil
    }

    /// The instants measured, in seconds.
    func seconds(fps: Double) -> [Double] { frames.map { Double($0) / fps } }

    /// The error and banding of `path`, a loop whose frame `i` shows instant `first + i`,
    /// or a still that shows frame 0 (``UpscaledError``: RGB, or premultiplied RGBA with
    /// `includeAlpha`; banding on the colour over black).
    ///
    /// - Throws: a ``DecodeError`` when the file cannot be decoded, and
    ///   ``VideoError/endedEarly(path:frame:)`` when it ends early.
    package func measure(_ path: String, isLoop: Bool, includeAlpha: Bool, first: Int = 0) throws -> Result {
        let set = try FrameSet(path: path)
        let wanted = isLoop ? frames.map { $0 - first } : [0]
        var decoded: [FrameSamples] = []
        if let sequence = try set.openSequence() {
            var index = 0
            while decoded.count < wanted.count {
                if wanted[decoded.count] == index {
                    guard let frame = try sequence.next() else { break }
                    decoded.append(frame)
                } else if try !sequence.skip() {
                    break
                }
                index += 1
            }
        } else {
            decoded = [try set.load(.number(0))]
        }
        guard decoded.count == wanted.count else {
            throw VideoError.endedEarly(path: path, frame: wanted[decoded.count])
        }
        var error = UpscaledError()
        var banding: Double?
        for (index, (frame, reference)) in zip(decoded, references).enumerated() {
            error.add(UpscaledError(expected: reference, small: frame, includeAlpha: includeAlpha))
            if let referenceBanding {
                let added = BandingDifference(expected: referenceBanding[index], actual: BandingIndex.of(frame)).added
                banding = max(banding ?? 0, added)
            }
        }
        return Result(psnr: error.psnr, largest: error.largest, banding: banding)
    }
}
