extension Preset {
    /// Renders the frame that shows the instant `time`: the pixels `fluidgradient render`
    /// writes for it to a PNG with `--time`, at the same size, depth and dither.
    ///
    /// The preset is checked first, as a preset file is checked when it is read, so that
    /// a preset built in code with a value out of bounds throws rather than renders.
    ///
    /// - Parameters:
    ///   - time: The instant, in seconds: 0 to 86400.
    ///   - width: The frame's width in pixels; the preset's ``width`` when left out.
    ///   - height: The frame's height in pixels; the preset's ``height`` when left out.
    ///   - keepingLook: Whether a frame of another size than the preset's shows the preset
    ///     as it looks at that size, as its own frame scaled there would: the point scale
    ///     multiplied by `min(width, height) / min(preset width, preset height)`, so that σ
    ///     scales with the shorter side, as a video's encode size renders it. The preset is
    ///     then checked at its own size, and the multiplied point scale may fall outside
    ///     0.25...8. When false (the default), the point scale is the preset's at any size.
    ///     At the preset's own size both give the same frame.
    ///   - depth: The bits per channel of the samples.
    ///   - dither: Whether 8-bit samples are dithered, as the command's `--dither on`
    ///     (the default) does; 16-bit samples are never dithered.
    ///   - threads: How many threads share the work; the pixels do not depend on it.
    /// - Returns: The rendered frame.
    /// - Throws: ``PresetError`` naming the key at fault when the preset, the size or the
    ///   time is out of bounds.
    public func frame(
        at time: Double, width: Int? = nil, height: Int? = nil, keepingLook: Bool = false,
        depth: Frame.Depth = .eight, dither: Bool = true, threads: Int = 1
    ) throws(PresetError) -> Frame {
        let sized = try checked(width: width, height: height, times: [time], keepingLook: keepingLook)
        return FrameMaker(preset: sized, depth: depth, dither: dither, threads: threads)
            .frame(at: time, ditherIndex: sized.ditherIndex(at: time))
    }

    /// The frame whose dither pattern shows the instant `time`: the nearest frame at the
    /// preset's frame rate. The command uses this rule for a one-frame output, so that the
    /// still at `time` has the dither of the video frame that shows it.
    ///
    /// - Parameter time: The instant, in seconds.
    /// - Returns: `round(time × fps)`.
    package func ditherIndex(at time: Double) -> Int { Int((time * fps).rounded()) }

    /// This preset at `width`×`height` (either left out keeps the preset's), checked
    /// for rendering the instants `times` (the first and last suffice for a range).
    ///
    /// With `keepingLook`, the preset is also checked at its own size, and at another size
    /// it is ``lookingAlike(width:height:)``, whose point scale may leave its bounds.
    ///
    /// - Throws: ``PresetError`` for a preset, size or time out of bounds.
    package func checked(
        width: Int?, height: Int?, times: [Double], keepingLook: Bool = false
    ) throws(PresetError) -> Preset {
        var sized = self
        sized.width = width ?? self.width
        sized.height = height ?? self.height
        if keepingLook { try validate() }
        try sized.validate()
        if keepingLook, sized.width != self.width || sized.height != self.height {
            sized = lookingAlike(width: sized.width, height: sized.height)
        }
        let allowed = 0...PresetLimits.duration.upperBound
        for time in times where !allowed.contains(time) {
            throw PresetError(
                file: name, path: [.key("time")], reason: .outOfRange(ParameterRange.format(time), allowed: allowed))
        }
        return sized
    }
}

/// What renders a checked preset's frames: its animation, a renderer that keeps its
/// buffers from frame to frame, and the output's layout.
struct FrameMaker {
    let preset: Preset
    let animator: Animator
    let renderer: FrameRenderer
    let format: PixelFormat
    let dither: Bool

    init(preset: Preset, depth: Frame.Depth, dither: Bool, threads: Int) {
        self.preset = preset
        animator = Animator(preset: preset)
        renderer = FrameRenderer(spec: preset.frameSpec, threads: threads)
        format = depth == .sixteen ? .rgba64le : .rgba
        self.dither = dither
    }

    /// The frame showing `time`, dithered with the pattern of frame `ditherIndex`.
    func frame(at time: Double, ditherIndex: Int) -> Frame {
        var pixels = PixelBuffer(width: preset.width, height: preset.height, format: format)
        renderer.render(animator.scene(at: time), frameIndex: ditherIndex, dither: dither, into: &pixels)
        return Frame(
            pixels: pixels, time: time, hasTransparency: renderer.spec.hasTransparency,
            colorSpace: renderer.spec.colorSpace)
    }
}
