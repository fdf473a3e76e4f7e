/// What a render reports while it works, in order, through the stream given to
/// `Preset.write(to:…)`'s `events`: first its notes and the ffmpeg commands it runs, then
/// the size it renders at, then its progress.
public enum RenderEvent: Hashable, Sendable {
    /// One line on what the output will not hold of what was asked, or holds otherwise:
    /// transparency in an `.mp4`, the frames a GIF drops, the smaller size a video is
    /// encoded at. The command prints each as `note: …` unless `--quiet`.
    case note(String)
    /// An ffmpeg command line about to run, quoted for a POSIX shell (what `--verbose`
    /// prints).
    case ffmpegCommand(String)
    /// The frames start: the size they are rendered and encoded at (a video's encode
    /// size), and how many there are.
    case started(width: Int, height: Int, frameCount: Int)
    /// How far the work has come.
    case progress(RenderProgress)
}

/// How far a render has come: its phase, each part of that phase, and the share of the
/// whole work done.
///
/// A video or a PNG sequence has one phase and one step. A bundle encodes every loop and
/// poster at once, each a step of ``Phase/encoding`` named by its codec (`AV1`, `HEVC`,
/// `VP9`, `H.264`, and `posters`), then measures its files and packs the page.
public struct RenderProgress: Hashable, Sendable, CustomStringConvertible {
    /// A phase of the work.
    public enum Phase: String, Hashable, Sendable {
        /// Frames rendered and handed to the encoders.
        case encoding
        /// A bundle's files decoded and measured against the render.
        case measuring
        /// A bundle's page and manifest written, and the bundle moved into place.
        case packing
    }

    /// One part of a phase: an encode, counted in frames handed to its encoder, or the
    /// files measured.
    public struct Step: Hashable, Sendable {
        /// What the step does: a codec's name, `posters`, `PNG`, `raw` or `files`.
        public var name: String
        /// The frames or files done.
        public var done: Int
        /// The frames or files in all.
        public var total: Int
    }

    /// The phase under way.
    public var phase: Phase
    /// Each part of the phase, with how far it has come.
    public var steps: [Step]
    /// The share of the whole work done, 0 to 1: it only rises, and is 1 when the work is
    /// complete.
    public var fractionCompleted: Double

    /// The phase and its steps in a few words: `encoding AV1 40%, HEVC 55%, posters 2/3`,
    /// `measuring 3/7 files`, `packing`.
    public var description: String {
        guard !steps.isEmpty else { return phase.rawValue }
        let parts = steps.map { step in
            step.total > 20
                ? "\(step.name) \(100 * step.done / max(1, step.total))%" : "\(step.name) \(step.done)/\(step.total)"
        }
        return phase.rawValue + " " + parts.joined(separator: ", ")
    }
}
