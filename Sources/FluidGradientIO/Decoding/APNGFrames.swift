import FluidGradient
import Foundation

/// An animated PNG, decoded by ffmpeg (its blend and dispose rules applied), with each
/// frame's delay as ffprobe reads it from the file's frame control chunks.
final class APNGFrames: TimedFrames {
    let path: String
    let durations: [Double]
    private let frames: VideoFrames
    /// What the file's colour chunks say (ffmpeg reads no cICP), by libpng.
    private let colorSpace: ColorSpace

    /// Opens `path` with ffmpeg and reads its frames' delays with ffprobe.
    ///
    /// - Throws: a ``DecodeError`` when ffprobe finds no frames or a frame without a delay;
    ///   a failure when ffmpeg or ffprobe is missing.
    init(path: String) throws {
        self.path = path
        frames = try VideoFrames(path: path, eachFrameOnce: true, layout: .plain)
        let lines = try VideoFrames.probe(
            path, ffprobe: try VideoFrames.locateFFprobe(), entries: "packet=duration_time", csv: true, limit: 1 << 24)
        let durations = lines.map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !durations.isEmpty, durations.allSatisfy({ ($0 ?? -1) >= 0 }) else {
            throw DecodeError.noFrameDelays(path: path)
        }
        self.durations = durations.map { $0! }
        colorSpace = try PNGFile.read(path).colorSpace
    }

    func next() throws -> FrameSamples? {
        guard var frame = try frames.next() else { return nil }
        frame.colorSpace = colorSpace
        return frame
    }
}
