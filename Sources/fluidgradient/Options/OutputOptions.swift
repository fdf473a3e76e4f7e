import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

enum DitherSetting: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

extension PixelFormat: ExpressibleByArgument {}
extension AlphaMode: ExpressibleByArgument {}
extension VideoCodec: ExpressibleByArgument {}

/// Where frames go and how they are quantised.
struct OutputOptions: ParsableArguments {
    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp(
            "out.png (one frame), a pattern such as frames/%05d.png (numbered PNGs), out.mp4, out.mov, out.webm, "
                + "out.gif, out.webp, out.apng, out.avif, or - for raw frames on stdout.",
            valueName: "OUTPUT"))
    var output: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Bits per channel of PNG and raw output: 8 or 16.", valueName: "8|16"), transform: number)
    var depth: Int?

    @Option(
        help: ArgumentHelp(
            "Ordered dithering before 8-bit quantisation (on by default; no effect at 16 bits).", valueName: "on|off"))
    var dither: DitherSetting = .on

    @Option(
        help: ArgumentHelp(
            "What happens to transparency: auto (kept where the output can; .mp4 and .gif drop it with a note), "
                + "keep (refuse an output that cannot keep it), or stacked (.mp4 only: colour above alpha, each "
                + "half padded to a multiple of 64 rows, tagged for the web player).",
            valueName: "auto|keep|stacked"))
    var alpha: AlphaMode = .auto

    @Option(
        help: ArgumentHelp(
            "Layout of raw frames (-o -): rgba (default), rgb24, rgba64le, rgb48le, yuv420p (BT.709, limited "
                + "range) or yuv420p10le (the same at 10 bits, undithered; a 16-bit format).",
            valueName: "FMT"))
    var pixelFormat: PixelFormat?

    @OptionGroup var threading: ThreadOptions

    @Flag(help: "No progress display and no notes (what a container cannot keep); errors still show.")
    var quiet = false

    @Flag(help: "When done, print frames, time, frames per second and this process's peak memory to stderr.")
    var stats = false

    @Flag(help: "Print the ffmpeg command line (for video) to stderr before rendering.")
    var verbose = false

    func validate() throws {
        if let depth, depth != 8 && depth != 16 {
            throw ValidationError("--depth must be 8 or 16, not \(depth)")
        }
    }

}
