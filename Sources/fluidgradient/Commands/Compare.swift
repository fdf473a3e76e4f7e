import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

extension VideoLayout: ExpressibleByArgument {}
extension FrameScaling: ExpressibleByArgument {}

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare frames with goldens: PNGs, directories or patterns of PNGs, videos, or animated images.",
        discussion: """
            Each side is a PNG, a directory of PNGs, a numbered pattern such as goldens/%05d.png, a video (decoded \
            by ffmpeg), a still or animated .webp or .avif (decoded by libwebp and libavif, alpha included), or an \
            .apng (decoded by ffmpeg). Frames are matched by file name when both sides are directories, by number \
            when both are numbered (patterns, videos), otherwise by position. 8- and 16-bit PNGs, with or without \
            alpha, compare on one scale: 8-bit levels of the colour shown over black.

            An animated image's frames each show for a time of their own, and an encoder may merge identical \
            frames into one longer one. Its frames are taken at a fixed rate, --fps or else its own (frames \
            over total duration, which needs frames of one duration): frame k is the one showing at the middle \
            of the k-th frame interval, (k + 1/2)/rate seconds in, as a player shows it then. A still image \
            stands for every frame of the other side.

            A video whose comment tag is fluidgradient-layout=stacked-alpha (render --alpha stacked) is read as \
            stacked alpha: each frame is recombined into a W x H frame with alpha, as the web player does, H being \
            the tag's height (;height=H) or half the frame's. The alpha is the BT.709 luma of the last H rows; the \
            first H rows are the colour premultiplied by it (clamped to it). --layout stacked reads every video so, \
            tag or not; --layout plain reads its frames as stored.

            --scale bilinear compares an actual frame smaller than its golden, with the same aspect ratio exactly \
            (an encode made at a reduced size), after scaling it up to the golden's size as video players and \
            browsers do: bilinear, pixel centres aligned, edge pixels repeated, as ffmpeg's scale=flags=bilinear \
            (some players filter better, bicubic or Lanczos, which smooths a little more). Its frames are reported \
            as upscaled.

            For each frame: the largest channel difference in 8-bit levels and where it is, the pixels over the \
            tolerance, PSNR, and the colour difference as ΔE in OKLab (mean and largest; 0.02 is about a \
            just-noticeable difference), shown as a score, 100·(1 − mean ΔE).

            Frames compare in their own colour space, as their files say: a PNG's cICP chunk or ICC profile, a \
            video's or an AVIF's primaries, a WebP's profile (sRGB where nothing says otherwise). Two files in \
            different spaces (sRGB and Display P3) compare in Display P3, the sRGB side's colours converted into \
            it, and the report says so.

            --banding adds, for each frame, the false contours the actual frame adds in smooth regions: steps \
            between wide plateaus that the expected frame does not have, as Netflix's CAMBI measures them on the \
            luma (a frame under 1080p's pixels is first scaled up, as a screen shows it). The report gives the \
            largest and flags a frame above 1 (CAMBI puts "slightly annoying" near 5); it does not change the \
            exit status.

            Exit status: 0 the frames match; 1 they differ (or frames are missing, extra or of another size); \
            2 an input cannot be read, or an animated image's frames cannot be paired without --fps; 3 ffmpeg or \
            ffprobe, which videos need, is missing or cannot start.

            Examples:
              fluidgradient compare goldens/ renders/
              fluidgradient compare 'goldens/%05d.png' clip.mp4 \\
                --tolerance 12 --max-differing 0.5%
              fluidgradient compare expected.png actual.png --diff diffs --json \\
                > report.json
            """
    )

    @Argument(help: "The golden frames.")
    var expected: String

    @Argument(help: "The frames to check.")
    var actual: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Largest difference, in 8-bit levels, that still counts as equal (default 0: exact).", valueName: "N"),
        transform: number)
    var tolerance: Double?

    @Option(
        text: ArgumentHelp(
            "Share of a frame's pixels allowed over the tolerance, as a percentage such as 0.5% (the % is "
                + "required: a bare 0.05 could mean 0.05% or 5%; default 0%).",
            valueName: "P%"))
    var maxDiffering: String?
    private var differing: String { maxDiffering ?? "0%" }

    @Option(
        help: ArgumentHelp(
            "Write an \"expected | actual | difference\" strip for each differing frame into this directory "
                + "(created if missing); a strip left there for a frame that now matches is removed.",
            valueName: "DIR"))
    var diff: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The rate, in frames per second (1...240), at which animated images are sampled to pair with the other "
                + "side's frames (default: the image's own).", valueName: "N"), transform: number)
    var fps: Double?

    @Option(
        help: ArgumentHelp(
            "How videos' frames are laid out: auto (stacked alpha when the file's tag says so), stacked or plain.",
            valueName: "LAYOUT"))
    var layout: VideoLayout?

    @Option(
        help: ArgumentHelp(
            "What to do with an actual frame smaller than its golden of the same aspect ratio: none (a size "
                + "mismatch) or bilinear (scale it up first, as a player shows a smaller encode).",
            valueName: "MODE"))
    var scale: FrameScaling = .none

    @Flag(
        help: ArgumentHelp(
            "Also measure banding: the false contours each actual frame adds in smooth regions, a CAMBI-like "
                + "index (0 none, about 5 annoying), flagged above 1."))
    var banding = false

    @Flag(help: "Print the report as JSON on stdout.")
    var json = false

    func validate() throws {
        if let tolerance, !(0...255).contains(tolerance) {
            throw ValidationError("--tolerance must be 0 to 255 levels, not \(ParameterRange.format(tolerance))")
        }
        guard Self.share(differing) != nil else {
            if let value = Double(differing), value > 0, value <= 100 {
                let asShare =
                    value <= 1 ? ", or \(ParameterRange.format(value * 100))% for a share of \(differing)" : ""
                throw ValidationError(
                    "--max-differing needs a % sign: write \(differing)% for \(differing) percent" + asShare)
            }
            throw ValidationError(
                "--max-differing must be a percentage from 0% to 100%, such as 0.5%, not \(differing)")
        }
        if let fps, !PresetLimits.fps.contains(fps) {
            throw ValidationError("--fps must be 1 to 240 frames per second, not \(ParameterRange.format(fps))")
        }
        if diff?.isEmpty == true { throw ValidationError("--diff needs a directory, not an empty path") }
    }

    /// `P%` as a share of 1; a bare number only for 0, which reads the same either way.
    static func share(_ text: String) -> Double? {
        guard text.hasSuffix("%") || Double(text) == 0,
            let value = Double(text.hasSuffix("%") ? String(text.dropLast()) : text),
            (0...100).contains(value)
        else { return nil }
        return value / 100
    }

    func run() throws {
        let reading = FrameSet.Reading(rate: fps, layout: layout ?? .auto)
        let sets = (try FrameSet(path: expected, reading: reading), try FrameSet(path: actual, reading: reading))
        if fps != nil, !sets.0.isAnimation, !sets.1.isAnimation {
            throw CommandError.input(
                "--fps applies to animated images (\(AnimatedImageFormat.extensions)), "
                    + "and neither \(expected) nor \(actual) is one")
        }
        if layout != nil, !sets.0.isVideo, !sets.1.isVideo {
            throw CommandError.input("--layout applies to videos, and neither \(expected) nor \(actual) is one")
        }
        let comparison = try Comparison.run(
            expected: sets.0, actual: sets.1, tolerance: tolerance ?? 0, maximumDiffering: Self.share(differing)!,
            diffDirectory: diff, scaling: scale, measuresBanding: banding)
        print(json ? comparison.json.serialized() : comparison.report)
        if !comparison.matches { throw ExitCode(1) }
    }
}
