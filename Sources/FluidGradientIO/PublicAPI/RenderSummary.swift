/// What a render wrote.
public struct RenderSummary: Hashable, Sendable {
    /// One of a bundle's loops.
    public struct Loop: Hashable, Sendable {
        /// Its name inside the bundle's directory, such as `loop-av1.mp4`.
        public var file: String
        /// Its size in bytes.
        public var bytes: Int
    }

    /// The width the frames were rendered and encoded at: a video's or a bundle's encode
    /// width; the display width otherwise.
    public var width: Int
    /// The height the frames were rendered and encoded at.
    public var height: Int
    /// The frames written: into the file, the sequence, standard output, or each of a
    /// bundle's loops.
    public var frameCount: Int
    /// A bundle's loops, in the order its page offers them; empty for other outputs.
    public var loops: [Loop]
}
