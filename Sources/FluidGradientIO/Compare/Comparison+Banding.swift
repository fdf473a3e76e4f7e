import FluidGradient

/// What `compare` says of banding: false contours the actual frames add to the expected.
extension Comparison {
    /// The frames with a banding measure, and the one that adds the most.
    private var banded: (measured: [FrameResult], worst: FrameResult?) {
        let measured = frames.filter { $0.banding != nil }
        return (measured, measured.max { $0.banding!.added < $1.banding!.added })
    }

    /// With `--banding`, a line for each flagged frame, then one for the largest banding added.
    var bandingLines: [String] {
        let (measured, worst) = banded
        guard let worst, let most = worst.banding else { return [] }
        let threshold = String(format: "%.2f", BandingDifference.threshold)
        var lines = measured.filter { $0.banding!.isFlagged }.map { frame in
            let banding = frame.banding!
            return "\(frame.name) bands: "
                + String(
                    format: "false contours of %.2f over the expected frame's (banding index %.2f against %.2f)",
                    banding.added, banding.actual, banding.expected)
                + ", over the \(threshold) that is flagged"
        }
        let flagged = measured.filter { $0.banding!.isFlagged }.count
        lines.append(
            String(format: "banding: largest added %.2f (%@)", most.added, worst.name)
                + (flagged == 0
                    ? ", under the \(threshold) that is flagged"
                    : "; \(counted(flagged, "frame")) over \(threshold)"))
        return lines
    }

    /// The summary's banding members, with `--banding`: the largest added and how many frames are flagged.
    var bandingSummary: [(String, JSONNode)] {
        guard measuresBanding else { return [] }
        let (measured, worst) = banded
        return [
            ("largestBandingAdded", JSONNode(.number(((worst?.banding?.added ?? 0) * 1e4).rounded() / 1e4))),
            ("bandedFrames", JSONNode(.number(Double(measured.filter { $0.banding!.isFlagged }.count)))),
        ]
    }

    /// A frame's banding: the expected and actual indices, the banding added, and whether it is flagged.
    static func json(_ banding: BandingDifference) -> JSONNode {
        func number(_ value: Double) -> JSONNode { JSONNode(.number((value * 1e4).rounded() / 1e4)) }
        return JSONNode(
            .object([
                ("expected", number(banding.expected)), ("actual", number(banding.actual)),
                ("added", number(banding.added)), ("flagged", JSONNode(.bool(banding.isFlagged))),
            ]))
    }
}
