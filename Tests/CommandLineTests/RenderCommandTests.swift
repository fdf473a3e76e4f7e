import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// `fluidgradient render` for stills, end to end: stdout, stderr, exit status and files.
@Suite struct RenderCommandTests {
    @Test func rendersTheDefaultPresetToAPNG() throws {
        let scratch = Scratch()
        let result = run(["render", "-o", scratch.file("still.png")])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
        #expect(scratch.contents == ["still.png"])
        let image = try PNGFile.read(scratch.file("still.png"))
        #expect(image.width == 1920 && image.height == 1080 && image.storedChannels == 3 && image.bitDepth == 8)
    }

    @Test(arguments: PresetLibrary.names)
    func rendersEveryBuiltInPresetAt1080p(name: String) throws {
        let scratch = Scratch()
        let result = run(["render", "--preset", name, "--size", "1920x1080", "-o", scratch.file("x.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGFile.read(scratch.file("x.png"))
        #expect(image.width == 1920 && image.height == 1080)
        // Not blank: a gradient has many distinct values.
        #expect(Set(image.storedSamples.prefix(30_000)).count > 20)
    }

    @Test func builtInPresetsWorkFromAnyDirectory() throws {
        let scratch = Scratch()
        let result = run(
            ["render", "--preset", "aurora", "--size", "64x36", "-o", scratch.file("a.png")], directory: "/")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNGFile.read(scratch.file("a.png")).width == 64)
    }

    @Test func theSameInputsGiveTheSameBytesAtAnyThreadCount() throws {
        let scratch = Scratch()
        for threads in [1, 2, 5] {
            let result = run([
                "render", "--preset", "neon", "--size", "640x360", "--time", "1.3", "--threads", "\(threads)", "-o",
                scratch.file("t\(threads).png"),
            ])
            #expect(result.status == 0)
        }
        let files = try [1, 2, 5].map { try Data(contentsOf: URL(fileURLWithPath: scratch.file("t\($0).png"))) }
        #expect(files[0] == files[1] && files[1] == files[2])
    }

    @Test func writesRGBAWhenTheFrameHasTransparencyAnd16BitOnRequest() throws {
        let scratch = Scratch()
        #expect(
            run(["render", "--size", "64x36", "--background", "transparent", "-o", scratch.file("a.png")]).status == 0)
        let rgba = try PNGFile.read(scratch.file("a.png"))
        #expect(rgba.storedChannels == 4 && rgba.bitDepth == 8)
        #expect(run(["render", "--size", "64x36", "--depth", "16", "-o", scratch.file("b.png")]).status == 0)
        let deep = try PNGFile.read(scratch.file("b.png"))
        #expect(deep.storedChannels == 3 && deep.bitDepth == 16)
    }

    /// A hand-pinned scene, still, 16-bit and undithered, matches the definition.
    @Test func explicitStillSceneMatchesTheDefinition() throws {
        let scratch = Scratch()
        let preset = """
            {
              "name": "pinned",
              "blobs": [
                { "color": "#3366FF", "center": [0.2, 0.3], "radius": [0.5, 0.6], "opacity": 0.9 },
                { "color": "#FF6B6B", "center": [0.8, 0.7], "radius": [0.35, 0.5] }
              ],
              "highlightBlobs": [{ "color": "#FDE68A", "center": [0.55, 0.45], "radius": [0.3, 0.4], "opacity": 0.8 }],
              "background": "#101828",
              "speed": 0,
              "size": "160x90"
            }
            """
        try Data(preset.utf8).write(to: URL(fileURLWithPath: scratch.file("pinned.json")))
        let result = run([
            "render", "--preset", scratch.file("pinned.json"), "--depth", "16", "--dither", "off", "-o",
            scratch.file("p.png"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGFile.read(scratch.file("p.png"))
        let loaded = try PresetLibrary.file(scratch.file("pinned.json"))
        let reference = ReferenceRenderer.render(
            Animator(preset: loaded).scene(at: 0), spec: loaded.frameSpec)
        var largest = 0.0, total = 0.0
        for y in 0..<90 {
            for x in 0..<160 {
                let actual = image.storedRGBA(x: x, y: y), expected = reference[x, y]
                for lane in 0..<3 {
                    let difference = abs(actual[lane] - expected[lane]) * 255
                    largest = max(largest, difference)
                    total += difference
                }
            }
        }
        #expect(largest <= 2)
        #expect(total / Double(160 * 90 * 3) <= 0.5)
    }

    @Test func timePicksTheInstantOfAOneFrameOutput() throws {
        let scratch = Scratch()
        #expect(
            run(["render", "--preset", "ocean", "--size", "96x54", "--time", "1.5", "-o", scratch.file("t.png")]).status
                == 0)
        #expect(
            run([
                "render", "--preset", "ocean", "--size", "96x54", "--frame-range", "89-90", "-o",
                scratch.file("f%03d.png"),
            ]).status == 0)
        let single = try Data(contentsOf: URL(fileURLWithPath: scratch.file("t.png")))
        #expect(single == (try Data(contentsOf: URL(fileURLWithPath: scratch.file("f090.png")))))
        #expect(single != (try Data(contentsOf: URL(fileURLWithPath: scratch.file("f089.png")))))
    }

    /// A loop's period is its duration, so a still from a loop takes --duration too.
    @Test func aStillFromALoopUsesTheLoopsDuration() throws {
        let scratch = Scratch()
        let common = ["render", "--preset", "ocean", "--size", "96x54", "--loop"]
        #expect(run(common + ["--duration", "1", "--time", "0.5", "-o", scratch.file("t.png")]).status == 0)
        #expect(run(common + ["--duration", "1", "--frame-range", "30", "-o", scratch.file("f%03d.png")]).status == 0)
        #expect(run(common + ["--duration", "2", "--time", "0.5", "-o", scratch.file("longer.png")]).status == 0)
        let still = try PNGFile.read(scratch.file("t.png")).storedSamples
        #expect(still == (try PNGFile.read(scratch.file("f030.png")).storedSamples))
        #expect(still != (try PNGFile.read(scratch.file("longer.png")).storedSamples))
    }

    /// A loop keeps only its solved last target, not every retarget step's: ten times the
    /// steps (173,000 → 1,730,000 per blob) once took 919 MB for one still. What is left
    /// grows by 16 transient bytes a step (the solution's weights), 25 MiB here.
    @Test func aLongLoopKeepsNoTargetPerStep() {
        func peak(duration: Int) -> Double {
            let result = run([
                "render", "--size", "32x18", "--loop", "--speed", "10", "--retarget-interval", "0.05...0.05",
                "--duration", "\(duration)", "--time", "0", "--stats", "-o", "-",
            ])
            #expect(result.status == 0)
            return result.reportedPeakMiB ?? .infinity
        }
        let short = peak(duration: 864), long = peak(duration: 8640)
        #expect(long - short < 64, "864 s: \(short) MiB, 8640 s: \(long) MiB")
    }

    @Test func helpTeachesTheFlags() {
        let result = run(["render", "--help"])
        #expect(result.status == 0)
        for flag in [
            "--preset", "--colors", "--background", "--size", "--edges", "--depth", "--dither", "--frame-range",
            "--time", "--loop", "-o",
        ] {
            #expect(result.stdoutText.contains(flag), "help lacks \(flag)")
        }
        #expect(run(["--help"]).stdoutText.contains("Exit status"))
        // The defaults that flags override, as the default preset holds them.
        let defaults = run(["presets", "show", "default"]).stdoutText
        #expect(defaults.contains("size          1920x1080") && defaults.contains("seed          12"))
        let help = result.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            help.contains(
                "(the default preset: 1920x1080, 60 fps, 10 s, loop, speed 0.8, blur 0.75, point scale 1, "
                    + "bleed edges, seed 12)"
            ))
    }
}
