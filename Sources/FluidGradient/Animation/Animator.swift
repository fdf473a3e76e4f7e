/// One blob's animated values — centre x, centre y, radius x, radius y, opacity — as
/// lanes 0–4 of a vector (lanes 5–7 unused), so all five move in one operation.
package typealias BlobChannels = SIMD8<Double>

extension BlobChannels {
    init(_ placement: BlobPlacement) {
        self.init(
            placement.center.x, placement.center.y, placement.radius.x, placement.radius.y, placement.opacity, 0, 0, 0)
    }

    var placement: BlobPlacement {
        BlobPlacement(center: SIMD2(self[0], self[1]), radius: SIMD2(self[2], self[3]), opacity: self[4])
    }
}

/// A blob's state at an instant: where it is and how fast each value changes.
package struct BlobMotionState: Hashable, Sendable {
    package var position: BlobChannels
    package var velocity: BlobChannels
}

/// The time-stepped engine of DESIGN section 6: the scene at any time `t`.
///
/// Each blob retargets at fixed steps of its own interval, drawn once in the
/// preset's `retargetInterval` range (0.8...1.2 s) divided by the speed. At each step
/// it draws a new centre, radius and opacity as in DESIGN section 3, and each value
/// follows a ``Spring`` towards it, with velocity carried over the retarget.
/// Between steps the spring is solved exactly, so the state at `t` is a pure function
/// of `t`: the same at any frame rate, and the same when seeking.
///
/// In loop mode the targets repeat with the loop's period `L`, each blob retargeting
/// `N = max(2, round(L / interval))` times per loop, and the motion is the spring's
/// periodic solution: the state at `t + L` equals the state at `t`, velocity included.
/// Each blob's retargets are shifted by a phase of its own in `[0, interval)`, the
/// phases spread evenly over the blobs, so the blobs do not all retarget (and slow
/// down) together at the seam `t = 0`: the seam is an ordinary moment of the loop.
/// One target near the seam is solved for so that the loop passes through the
/// starting scene at `t = 0` (``LoopTargets``).
///
/// Random draws come from one ``SplitMix64`` stream per (seed, layer, blob, step),
/// so any step's draw is reached directly; and since a damped spring forgets, any
/// instant is reached from a checkpoint a bounded number of steps back (``BlobTrack``),
/// so no frame's simulation grows with `t`, the loop's length or the speed.
package final class Animator {
    package let preset: Preset
    package let width: Int
    package let height: Int
    /// The loop period in seconds, in loop mode.
    package let loopPeriod: Double?
    private var base: [BlobTrack]
    private var highlights: [BlobTrack]

    /// The random stream of the loop phases' common offset (the blobs' streams are
    /// keyed by layer 0 or 1).
    static let phaseStream: UInt64 = 2

    package init(preset: Preset, width: Int? = nil, height: Int? = nil) {
        self.preset = preset
        self.width = width ?? preset.width
        self.height = height ?? preset.height
        let loopPeriod = preset.loop ? Double(preset.frameCount) / preset.fps : nil
        self.loopPeriod = loopPeriod
        let aspect = Double(self.width) / Double(self.height)
        func placeholders(_ colors: [RGBA]) -> [Blob] { colors.map { Blob(color: $0, center: .zero, radius: .zero) } }
        let baseBlobs = preset.blobs ?? placeholders(preset.colors)
        let highlightBlobs = preset.highlightBlobs ?? placeholders(preset.highlights)
        // Blob j of all M gets the phase (j + u)/M of its interval: spread evenly, so
        // at the seam about one blob in M is near a retarget, whatever the seed.
        var phaseStream = SplitMix64(seed: preset.seed, stream: Animator.phaseStream)
        let phaseOffset = phaseStream.nextUnit(), blobCount = Double(baseBlobs.count + highlightBlobs.count)
        func tracks(layer: UInt64, blobs: [Blob], explicit: Bool, first: Int) -> [BlobTrack] {
            blobs.enumerated().map { index, blob in
                BlobTrack(
                    color: blob.color, explicitStart: explicit ? blob : nil, preset: preset,
                    streamID: (layer, UInt64(index)), aspectRatio: aspect, loopPeriod: loopPeriod,
                    phaseFraction: (Double(first + index) + phaseOffset) / blobCount)
            }
        }
        base = tracks(layer: 0, blobs: baseBlobs, explicit: preset.blobs != nil, first: 0)
        highlights = tracks(
            layer: 1, blobs: highlightBlobs, explicit: preset.highlightBlobs != nil, first: baseBlobs.count)
    }

    /// The scene at `t` seconds, a finite time (a programming error otherwise). The cost
    /// is bounded by how long the springs remember, whatever `t` and the loop's length.
    package func scene(at t: Double) -> Scene {
        precondition(t.isFinite, "Animator.scene(at:) needs a finite time, not \(t)")
        return Scene(
            base: base.indices.map { base[$0].blob(at: t) },
            highlights: highlights.indices.map { highlights[$0].blob(at: t) })
    }

    /// Each base blob's position and velocity at `t` (then the highlight blobs').
    package func motion(at t: Double) -> [BlobMotionState] {
        (base.indices.map { base[$0].state(at: t) }) + highlights.indices.map { highlights[$0].state(at: t) }
    }

    /// Seconds between retargets of each blob (base blobs, then highlights).
    package var retargetIntervals: [Double] { (base + highlights).map(\.interval) }

    /// When each blob retargets: at `phase + n·interval` for every whole `n` (base blobs,
    /// then highlights). Zero outside a loop; in a loop, in `[0, interval)`.
    package var retargetPhases: [Double] { (base + highlights).map(\.phase) }
}
