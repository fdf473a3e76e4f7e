import FluidGradient

/// A bundle's progress: one encoding step per loop, named by its codec, and one for the
/// posters; then the files measured; then the page packed.
enum BundleProgress {
    /// Each phase's share of a bundle's time, from the default preset's 10 s 1080p60 loop
    /// on two cores: the encodes about 80%, measuring the files about 18%, the page and the
    /// rename the rest.
    static let weights: [RenderProgress.Phase: Double] = [.encoding: 0.8, .measuring: 0.18, .packing: 0.02]

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
