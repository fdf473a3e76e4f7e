import FluidGradient

/// A bundle's progress: one encoding step per loop, named by its codec, and one for the
/// posters; then the files measured; then the page packed.
enum BundleProgress {
    /// Each phase's share of a bundle's time, measured on the default preset's 10 s 1080p60
    /// loop on two shared cores (a release build; 193 s in all, the machine busy): the
    /// encodes 170 s (88%), measuring the files 23 s (12%), the page and the rename 0.03 s.
    /// The packing keeps a hundredth, so that the share moves when it starts.
    static let weights: [RenderProgress.Phase: Double] = [.encoding: 0.88, .measuring: 0.11, .packing: 0.01]

    /// The encoding steps for `outputs`, in their order: each loop's frames, then the
    /// posters' one frame each.
    static func steps(for outputs: [BundleOutput], frames: Int) -> [(name: String, total: Int)] {
        let loops = outputs.filter(\.isLoop).map { (name: $0.stepName, total: frames) }
        return loops + [(name: "posters", total: outputs.count - loops.count)]
    }

    /// The step `output`'s frames count into, among `outputs`' steps.
    static func step(of output: BundleOutput, in outputs: [BundleOutput]) -> Int {
        let loops = outputs.filter(\.isLoop)
        return loops.firstIndex { $0.file == output.file } ?? loops.count
    }
}

extension BundleOutput {
    /// The codec a loop is named by in the progress, or `posters`.
    var stepName: String {
        switch kind {
        case .loop(let container, let codec, _): container == .mp4 ? codec.displayName : container.codecName
        case .poster, .posterPNG, .posterJPEG: "posters"
        }
    }
}
