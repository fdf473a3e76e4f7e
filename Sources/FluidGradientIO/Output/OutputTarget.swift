import Foundation

/// Where rendered frames go, chosen from the output name.
package enum OutputTarget: Equatable, Sendable {
    /// One PNG file: one frame.
    case png(String)
    /// Numbered PNG files from a pattern such as `frames/%05d.png`; the number is the frame index.
    case pngSequence(FramePattern)
    case video(String, VideoContainer)
    /// Raw frames on standard output (`-o -`).
    case raw

    package init(parsing output: String) throws(OutputError) {
        if output == "-" {
            self = .raw
            return
        }
        guard !output.isEmpty else { throw OutputError.emptyPath }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        if output.contains("%") {
            let pattern = try FramePattern(output)
            guard ext == "png" else {
                throw OutputError.patternNotPNG(path: output)
            }
            self = .pngSequence(pattern)
            return
        }
        if ext == "png" {
            self = .png(output)
        } else if let container = VideoContainer(rawValue: ext) {
            self = .video(output, container)
        } else {
            throw OutputError.unknownKind(path: output)
        }
    }

    /// Whether this target holds a single frame.
    package var isSingleFrame: Bool {
        if case .png = self { return true }
        return false
    }
}
