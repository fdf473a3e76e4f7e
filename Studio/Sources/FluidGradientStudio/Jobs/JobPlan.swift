import FluidGradient
import FluidGradientIO

/// How a job fits the server's job budgets, decided before it is taken: its pixels ×
/// frames, the memory its process tree needs at its peak (the renders and measurements in
/// the server and the ffmpeg encoders, by the footprints measured in BENCHMARKS.md, "Issue
/// 35"), and for a bundle whether its files are encoded all at once or one after another.
///
/// The pixels × frames are the design's display size (what is rendered at most); the
/// memory of a video or animated image is estimated at the size it encodes at
/// (``EncodeSizeRequest/dimensions(for:)``: `auto` often picks a third of each side), since
/// the encoders' memory follows it; a bundle's at the display size.
package struct JobPlan: Sendable, Equatable {
    /// The design's pixels × the job's frames.
    package let pixelFrames: Int
    /// The estimated peak of the job's memory, in bytes.
    package let memoryBytes: Int
    /// For a bundle, how many files are encoded at once; nil for all of them.
    package let encodesAtOnce: Int?

    /// The plan of a job of `preset` (its duration and fps the job's) as `format`, encoded
    /// at `encodeSize`.
    ///
    /// - Parameters:
    ///   - preset: the design, with the job's duration and fps.
    ///   - format: what the job writes.
    ///   - encodeSize: the size it encodes at; `full`, the largest, by default.
    ///   - limits: the budgets.
    /// - Throws: ``JobProblem`` 422 when the pixels × frames are over
    ///   ``JobLimits/maxPixelFrames``, or the job needs more memory than
    ///   ``JobLimits/memoryBytes`` even with its encodes one after another.
    package init(
        preset: Preset, format: JobFormat, encodeSize: EncodeSizeRequest = .full, limits: JobLimits
    ) throws(JobProblem) {
        let pixels = preset.width * preset.height, frames = max(1, preset.frameCount)
        let work = pixels.multipliedReportingOverflow(by: frames)
        guard !work.overflow, work.partialValue <= limits.maxPixelFrames else {
            throw JobProblem.unprocessable(
                slug: "job-too-large", title: "The job is over the budget",
                detail: "The job is \(preset.width)x\(preset.height) for \(frames) frames, "
                    + "\(Self.giga(work.overflow ? .max : work.partialValue)) billion pixels x frames; "
                    + "the limit is \(Self.giga(limits.maxPixelFrames)) billion. Shorten it, lower its fps or its size."
            )
        }
        pixelFrames = work.partialValue
        // A bundle also renders its posters and measures its files at the display size, so
        // it is planned at that size, as its footprint was measured.
        let encoded = format == .bundle ? (preset.width, preset.height) : encodeSize.dimensions(for: preset)
        let encodedPixels = max(1, min(pixels, encoded.0.multipliedReportingOverflow(by: encoded.1).partialValue))
        let together = Self.footprint(of: format, pixels: encodedPixels, frames: frames, oneAtATime: false)
        // A bundle encodes everything at once while that takes at most a quarter of the
        // budget (small bundles stay fast); otherwise one file after another.
        if format == .bundle, together > limits.memoryBytes / 4 {
            memoryBytes = Self.footprint(of: format, pixels: encodedPixels, frames: frames, oneAtATime: true)
            encodesAtOnce = 1
        } else {
            (memoryBytes, encodesAtOnce) = (together, nil)
        }
        guard memoryBytes <= limits.memoryBytes else {
            throw JobProblem.unprocessable(
                slug: "job-too-large", title: "The job is over the budget",
                detail: "The job needs about \(memoryBytes >> 20) MiB at \(encoded.0)x\(encoded.1) for "
                    + "\(frames) frames (its encoders' measured memory); the job memory budget is "
                    + "\(limits.memoryBytes >> 20) MiB. Make it smaller or shorter.")
        }
    }

    /// The estimated peak of a job's process tree, in bytes: the server's part and its
    /// ffmpeg's, `base + perPixel × pixels + perPixelFrame × pixels × frames` (MiB, bytes),
    /// with a quarter added. The lines are least-squares fits of Scripts/encoder-memory.py's
    /// peaks at 640x360, 1280x720 and 1920x1080 (BENCHMARKS.md, "Issue 35"); only a GIF's
    /// palette pass (ffmpeg keeps every frame until the palette is made) and AVIF's encoders
    /// grow with the frames. A bundle one file at a time is the service's own peak at
    /// 3840x2160 (2,347 MiB, its measurement step then still two files at a time). A bundle
    /// adds 24 bytes a pixel for the rate search's three display-size reference frames
    /// (16-bit RGBA), held until the bundle is written: counted, not yet measured.
    static func footprint(of format: JobFormat, pixels: Int, frames: Int, oneAtATime: Bool) -> Int {
        let (base, perPixel, perPixelFrame): (Double, Double, Double)
        switch format {
        case .video(.mp4): (base, perPixel, perPixelFrame) = (93, 223, 0)
        case .video(.webm): (base, perPixel, perPixelFrame) = (128, 215, 0)
        case .video(.mov): (base, perPixel, perPixelFrame) = (82, 105, 0)
        case .video(.gif): (base, perPixel, perPixelFrame) = (113, 51, 3.75)
        case .video(.webp): (base, perPixel, perPixelFrame) = (77, 28, 0)
        case .video(.apng): (base, perPixel, perPixelFrame) = (76, 27, 0)
        case .video(.avif): (base, perPixel, perPixelFrame) = (202, 327, 0.5)
        case .bundle: (base, perPixel, perPixelFrame) = oneAtATime ? (97, 284 + 24, 0) : (97, 296 + 24, 0)
        }
        let megabyte = 1024.0 * 1024.0, (px, count) = (Double(pixels), Double(frames))
        let estimate = 1.25 * (base * megabyte + perPixel * px + perPixelFrame * px * count)
        return Int(min(estimate, Double(Int.max / 2)))
    }

    private static func giga(_ value: Int) -> String {
        let billions = Double(value) / 1e9
        return billions >= 100 ? String(Int(billions.rounded())) : String((billions * 100).rounded() / 100)
    }
}
