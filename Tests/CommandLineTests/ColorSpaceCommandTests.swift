import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// `--color-space display-p3` through the command, the real ffmpeg and ffprobe: every
/// file says Display P3, `compare` reads it so, and CSS Color 4's colours as written.
@Suite(.serialized) struct ColorSpaceCommandTests {
    /// 12 frames at 30 fps, 128x72: AV1 takes nothing under 64x64.
    static let clip = [
        "render", "--preset", "aurora", "--size", "128x72", "--frames", "12", "--fps", "30", "--color-space",
        "display-p3",
    ]

    /// ffprobe reads SMPTE EG 432-1 primaries (Display P3's) from every video container,
    /// with the transfer and matrix an sRGB file has: sRGB's curve (BT.709's in a .mov,
    /// whose ProRes header has no code for sRGB) and BT.709's matrix.
    @Test(arguments: ["mp4", "webm", "mov"])
    func videosAreTaggedWithP3Primaries(container: String) {
        let scratch = Scratch()
        let path = scratch.file("p3." + container)
        let result = run(Self.clip + ["-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        let info = probe(path, countFrames: false)
        #expect(info["color_primaries"] == "smpte432", "\(info)")
        let transfer = container == "mov" ? "bt709" : "iec61966-2-1"
        #expect(info["color_transfer"] == transfer && info["color_space"] == "bt709", "\(info)")
    }

    /// An AVIF's colr box and an APNG's and a WebP's chunks say Display P3, and `compare`
    /// reads each as such: against the PNG of the same frame it compares in Display P3,
    /// and says nothing of spaces.
    @Test(arguments: ["avif", "apng", "webp"])
    func animatedImagesSayDisplayP3(container: String) throws {
        let scratch = Scratch()
        let path = scratch.file("p3." + container), png = scratch.file("p3.png")
        #expect(run(Self.clip + ["-o", path]).status == 0)
        #expect(run(Self.clip + ["--time", "0", "-o", png]).status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        switch container {
        case "webp": #expect(WebPColorProfile.profile(in: bytes) == ICCProfile.displayP3)
        case "apng": #expect(try PNGFile.decode(bytes, name: path).colorSpace == .displayP3)
        default: #expect(probe(path, countFrames: false)["color_primaries"] == "smpte432")
        }
        let compared = run(["compare", png, path, "--tolerance", "12", "--json"])
        #expect(compared.stdoutText.contains("\"colorSpace\": \"display-p3\""), "\(compared.stdoutText)")
        #expect(!compared.stdoutText.contains("converted"), "\(compared.stdoutText)")
    }

    /// A GIF carries no colour space: a display-p3 GIF is rendered in sRGB, with a note.
    @Test func aGIFIsRenderedInSRGB() {
        let scratch = Scratch()
        let result = run(Self.clip + ["-o", scratch.file("p3.gif")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("a GIF carries no colour space"), "\(result.stderr)")
    }

    /// `compare` of a Display P3 PNG and an sRGB PNG of a flat colour: it says the spaces
    /// differ and converts the sRGB one into Display P3, where the two agree to a level.
    /// The control: the same P3 pixels in a file tagged sRGB are many levels off.
    @Test func compareConvertsBetweenSpacesAndSaysSo() throws {
        let scratch = Scratch()
        let flat = [
            "render", "--colors", "#00000000", "--highlights", "", "--background", "#E8613C", "--size", "32x18",
            "--time", "0", "--dither", "off",
        ]
        let p3 = scratch.file("p3.png"), srgb = scratch.file("srgb.png"), mislabelled = scratch.file("wrong.png")
        #expect(run(flat + ["--color-space", "display-p3", "-o", p3]).status == 0)
        #expect(run(flat + ["-o", srgb]).status == 0)
        let result = run(["compare", p3, srgb, "--tolerance", "1"])
        #expect(result.status == 0, "\(result.stdoutText)")
        #expect(
            result.stdoutText.contains(
                "\(p3) is display-p3 and \(srgb) is srgb: compared in display-p3, the colours of \(srgb) converted"),
            "\(result.stdoutText)")
        // The P3 file's samples, tagged sRGB.
        try PNGFile.write(try PNGFile.read(p3).pixels, to: mislabelled, alpha: false)
        let control = run(["compare", mislabelled, srgb, "--tolerance", "1"])
        #expect(control.status == 1, "\(control.stdoutText)")
    }

    /// `colors` shows each colour in sRGB and Display P3, and names a bad one's fault.
    @Test func colorsShowsBothSpaces() {
        let result = run(["colors", "oklch(63.7% 0.237 25.331)", "color(display-p3 0 1 0)"])
        #expect(result.status == 0)
        #expect(
            result.stdoutText
                == "oklch(63.7% 0.237 25.331)  sRGB #FB2C36 (inside)  display-p3 #E64341 (inside)\n"
                + "color(display-p3 0 1 0)  sRGB #00FB29 (gamut mapped)  display-p3 #00FF00 (inside)\n")
        let bad = run(["colors", "oklch(0.5 0.1)"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("oklch() takes 3 values and an optional \"/ alpha\", found 2"), "\(bad.stderr)")
    }

    /// `presets show` keeps the form written, with its sRGB bytes, and says where a
    /// colour lies outside sRGB.
    @Test func presetsShowKeepsTheFormWritten() throws {
        let scratch = Scratch()
        let file = scratch.file("p.json")
        try Data(
            #"{"colors": ["oklch(63.7% 0.237 25.331)", "color(display-p3 0 1 0)"], "colorSpace": "display-p3"}"#.utf8
        ).write(to: URL(fileURLWithPath: file))
        let result = run(["presets", "show", file])
        #expect(result.stdoutText.contains("  oklch(63.7% 0.237 25.331)  rgb(251, 44, 54)\n"), "\(result.stdoutText)")
        #expect(
            result.stdoutText.contains("  color(display-p3 0 1 0)  rgb(0, 251, 41) (outside sRGB, inside display-p3)"))
        #expect(result.stdoutText.contains("colorSpace    display-p3"))
        let json = run(["presets", "show", file, "--json"]).stdoutText
        #expect(json.contains(#""oklch(63.7% 0.237 25.331)""#) && json.contains(#""colorSpace": "display-p3""#))
    }
}
