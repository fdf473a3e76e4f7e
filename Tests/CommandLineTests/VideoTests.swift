import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// Video through the real ffmpeg binary, read back with ffprobe (DESIGN section 10).
@Suite(.serialized) struct VideoTests {
    @Test func mp4IsH264InBT709WithEveryFrame() throws {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "aurora", "--size", "320x180", "--duration", "2", "-o", scratch.file("a.mp4"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.contents == ["a.mp4"])
        let info = probe(scratch.file("a.mp4"))
        #expect(info["codec_name"] == "h264")
        #expect(info["pix_fmt"] == "yuv420p")
        #expect(info["nb_read_frames"] == "120")
        #expect(info["r_frame_rate"] == "60/1")
        #expect(Double(info["duration"] ?? "") == 2.0)
        #expect(
            info["color_space"] == "bt709" && info["color_transfer"] == "iec61966-2-1"
                && info["color_primaries"] == "bt709")
        #expect(info["color_range"] == "tv")
    }

    /// `--verbose` prints the ffmpeg command whole, however long (error lines are
    /// shortened past 400 characters; this one is there to be run again by hand).
    @Test func verbosePrintsTheWholeFFmpegCommand() throws {
        let scratch = Scratch()
        let output = scratch.file(String(repeating: "n", count: 200) + ".mp4")
        let result = run(["render", "--size", "64x36", "--frames", "2", "--verbose", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("ffmpeg command: ") })
        #expect(line.count > 400 && !line.contains("characters left out"))
        #expect(line.contains("-pix_fmt yuv420p -s 64x36") && line.hasSuffix(".mp4"))
    }

    /// Decoded back to RGB with BT.709, the video matches the PNG frames. H.264 at
    /// CRF 18 with 4:2:0 chroma is lossy, so the tolerance is a codec's: measured, the
    /// mean error is about 0.8 levels, the largest 8, and no channel drifts by more than
    /// 0.4 levels on average. A BT.601/BT.709 mix-up shifts channels by about 10 levels.
    @Test func mp4ColoursMatchThePNGFrames() throws {
        let scratch = Scratch()
        #expect(
            run(["render", "--preset", "sunset", "--size", "320x180", "--duration", "2", "-o", scratch.file("s.mp4")])
                .status == 0)
        #expect(
            run([
                "render", "--preset", "sunset", "--size", "320x180", "--duration", "2", "-o", scratch.file("%03d.png"),
            ]).status == 0)
        let frames = decodeFrames(scratch.file("s.mp4"), width: 320, height: 180)
        #expect(frames.count == 120)
        var total = 0.0, largest = 0.0, signed = SIMD3<Double>.zero, count = 0.0
        for (index, decoded) in frames.enumerated() {
            let png = try PNGFile.read(scratch.file(String(format: "%03d.png", index))).storedSamples
            for offset in 0..<decoded.count {
                let difference = Double(decoded[offset]) - Double(png[offset])
                total += abs(difference)
                largest = max(largest, abs(difference))
                signed[offset % 3] += difference
            }
            count += Double(decoded.count / 3)
        }
        #expect(total / (count * 3) < 1.5)
        #expect(largest <= 16)
        for channel in 0..<3 { #expect(abs(signed[channel] / count) < 1, "channel \(channel) drifts") }
    }

    @Test func movIsProRes4444WithAlpha() {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "neon", "--size", "320x180", "--duration", "2", "-o", scratch.file("n.mov"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let info = probe(scratch.file("n.mov"))
        #expect(info["codec_name"] == "prores")
        // ProRes 4444 carries alpha; this ffmpeg decodes it at 12 bits.
        #expect(info["pix_fmt"]?.hasPrefix("yuva444p") == true)
        #expect(info["nb_read_frames"] == "120")
        #expect(Double(info["duration"] ?? "") == 2.0)
        #expect(info["color_space"] == "bt709")
    }

    /// Flat colours land on their exact 10-bit BT.709 limited-range codes: Y = 64 + 876·Y′,
    /// Cb = 512 + 896·(B − Y′)/1.8556, Cr = 512 + 896·(R − Y′)/1.5748. A flat frame is a
    /// DC-only block, which ProRes keeps exactly, so any code off shows a conversion error.
    @Test(arguments: [("#FFFFFF", [940, 512, 512]), ("#000000", [64, 512, 512]), ("#FF0000", [250, 409, 960])])
    func movKeepsExactColourCodes(color: String, codes: [Int]) throws {
        let scratch = Scratch()
        let result = run([
            "render", "--colors", "#00000000", "--highlights", "", "--background", color, "--size", "64x36", "--frames",
            "2", "-o", scratch.file("f.mov"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let decode = Process()
        decode.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        decode.arguments = [
            "ffmpeg", "-v", "error", "-i", scratch.file("f.mov"), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt",
            "yuva444p10le", "-",
        ]
        let pipe = Pipe()
        decode.standardOutput = pipe
        try decode.run()
        let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
        decode.waitUntilExit()
        let plane = 64 * 36
        #expect(bytes.count == plane * 4 * 2)
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        for (index, code) in codes.enumerated() {
            #expect(Set(samples[(index * plane)..<((index + 1) * plane)]) == [UInt16(code)], "plane \(index)")
        }
        #expect(Set(samples[(3 * plane)...]) == [1023], "alpha")
    }

    @Test func webmIsVP9WithAlphaOnlyWhenTheFrameHasTransparency() {
        let scratch = Scratch()
        #expect(
            run(["render", "--preset", "ocean", "--size", "320x180", "--duration", "2", "-o", scratch.file("o.webm")])
                .status == 0)
        let opaque = probe(scratch.file("o.webm"))
        #expect(opaque["codec_name"] == "vp9")
        // 10-bit from the 16-bit frames (profile 2): fewer bytes and a closer picture than 8 bits.
        #expect(opaque["pix_fmt"] == "yuv420p10le")
        #expect(probeEntries(scratch.file("o.webm"), "stream=profile")["profile"] == "Profile 2")
        #expect(opaque["nb_read_frames"] == "120")
        #expect(opaque["color_space"] == "bt709")
        #expect(abs((Double(opaque["duration"] ?? "") ?? 0) - 2.0) < 0.01)
        #expect(
            run([
                "render", "--preset", "ocean", "--background", "transparent", "--size", "320x180", "--duration", "2",
                "-o", scratch.file("t.webm"),
            ]).status == 0)
        // VP9 carries alpha in a side stream that the libvpx decoder reads.
        let alpha = probeAlpha(scratch.file("t.webm"))
        #expect(alpha.contains("ALPHA_MODE=1") || alpha.contains("alpha_mode=1"))
    }

    /// VP9 takes an odd size, its chroma planes rounded up as ours are; H.264 refuses it.
    @Test func webmTakesAnOddSize() {
        let scratch = Scratch()
        let odd = ["render", "--preset", "ocean", "--size", "161x91", "--frames", "6"]
        #expect(run(odd + ["-o", scratch.file("odd.webm")]).status == 0)
        #expect(run(odd + ["-o", scratch.file("%02d.png")]).status == 0)
        let info = probe(scratch.file("odd.webm"))
        #expect(info["width"] == "161" && info["height"] == "91" && info["nb_read_frames"] == "6", "\(info)")
        // The same frames, within VP9's loss (the tolerance of videosCompareWithPNGsAndThemselves).
        let same = run([
            "compare", scratch.file("%02d.png"), scratch.file("odd.webm"), "--tolerance", "16", "--max-differing",
            "0.5%",
        ])
        #expect(same.status == 0, "\(same.stdoutText)")
        #expect(run(odd + ["-o", scratch.file("odd.mp4")]).status == 2)
    }

    /// compare decodes VP9 with libvpx, which reads the alpha side stream; ffmpeg's own
    /// decoder gave alpha 255 everywhere, so a right transparent WebM always differed. At
    /// an odd width, swscale's default RGBA → yuva420p left the last column up to 69
    /// levels off; accurate rounding and full chroma input fix it.
    @Test func aTransparentWebMComparesWithItsFrames() {
        let scratch = Scratch()
        let clip = ["render", "--preset", "aurora", "--background", "transparent", "--size", "63x35", "--frames", "6"]
        #expect(run(clip + ["-o", scratch.file("%02d.png")]).status == 0)
        #expect(run(clip + ["-o", scratch.file("t.webm")]).status == 0)
        // VP9's loss, as in webmTakesAnOddSize; alpha 255 instead of about 100 to 200 is far beyond it.
        let result = run([
            "compare", scratch.file("%02d.png"), scratch.file("t.webm"), "--tolerance", "16", "--max-differing", "0.5%",
        ])
        #expect(result.status == 0, "\(result.stdoutText)")
    }

    /// Extra options cannot silently undo what the file promises: a filter where ours
    /// converts the colours is refused, and a rate option replaces our constant quality.
    @Test func extraOptionsThatWouldUndoTheConversionAreRefused() {
        let scratch = Scratch()
        let clip = ["render", "--size", "64x36", "--frames", "2"]
        for (output, filter) in [
            ("v.mov", "-vf null"), ("v.mov", "-vf:v null"), ("v.gif", "-filter:v null"),
            ("v.mov", "-filter_complex_script f"),
        ] {
            BadInputTests.expectRejected(
                clip + ["-o", scratch.file(output), "--ffmpeg-options", filter], scratch: scratch,
                mentions:
                    "would replace or clash with the filter that converts a .\(output.dropFirst(2))'s colours to BT.709"
            )
        }
        // Filter threads are not filters.
        #expect(run(clip + ["-o", scratch.file("t.mov"), "--ffmpeg-options", "-filter_threads 1"]).status == 0)
        BadInputTests.expectRejected(
            clip + ["--background", "transparent", "-o", scratch.file("t.webm"), "--ffmpeg-options", "-vf null"],
            scratch: scratch,
            mentions: "would replace or clash with the filter that converts a .webm's colours")
        // An opaque mp4 converts nothing in ffmpeg, so a filter there is the user's to add.
        #expect(run(clip + ["-o", scratch.file("s.mp4"), "--ffmpeg-options", "-vf hflip"]).status == 0)
    }

    @Test func rateOptionsReplaceOurConstantQuality() {
        for (container, ours) in [(VideoContainer.mp4, ["-crf", "18"]), (.webm, ["-crf", "30", "-b:v", "0"])] {
            let encoding = VideoEncoding(container: container, hasTransparency: false)
            let plain = encoding.arguments(width: 64, height: 36, fps: 30, frameCount: 2, extraOptions: [], output: "o")
            #expect(plain.indices.contains { Array(plain[$0...].prefix(ours.count)) == ours }, "\(plain)")
            for rate in [["-b:v", "200k"], ["-b:v:0", "300k"], ["-crf", "23"]] {
                let rated = encoding.arguments(
                    width: 64, height: 36, fps: 30, frameCount: 2, extraOptions: rate, output: "o")
                #expect(rated.filter { $0 == "-crf" }.count == (rate[0] == "-crf" ? 1 : 0), "\(rated)")
                #expect(rated.suffix(3) == rate + ["o"])
            }
            // A cap works with our constant quality.
            let capped = encoding.arguments(
                width: 64, height: 36, fps: 30, frameCount: 2, extraOptions: ["-maxrate", "2M", "-bufsize", "4M"],
                output: "o")
            #expect(capped.contains("-crf"), "\(capped)")
        }
    }

    /// NTSC rates are tagged exactly; our centred 4:2:0 chroma is tagged as centred.
    @Test func ntscRatesAndChromaSitingAreTaggedExactly() {
        #expect(VideoEncoding.rateText(23.976) == "24000/1001")
        #expect(VideoEncoding.rateText(29.97) == "30000/1001")
        #expect(VideoEncoding.rateText(59.94) == "60000/1001")
        #expect(VideoEncoding.rateText(30) == "30")
        #expect(VideoEncoding.rateText(12.5) == "12.5")
        let scratch = Scratch()
        #expect(
            run(["render", "--size", "64x36", "--frames", "3", "--fps", "29.97", "-o", scratch.file("n.mp4")]).status
                == 0)
        let tags = probe(scratch.file("n.mp4"))
        #expect(tags["r_frame_rate"] == "30000/1001" && tags["chroma_location"] == "center", "\(tags)")
        #expect(run(["render", "--size", "64x36", "--frames", "3", "-o", scratch.file("n.webm")]).status == 0)
        #expect(probe(scratch.file("n.webm"))["chroma_location"] == "center")
    }

    /// A -pix_fmt that cannot add back what 4:2:0 dropped gets a note.
    @Test func widerPixelFormatsAreNoted() {
        let scratch = Scratch()
        let wide = run([
            "render", "--size", "64x36", "--frames", "2", "-o", scratch.file("w.mp4"), "--ffmpeg-options",
            "-pix_fmt yuv444p",
        ])
        #expect(wide.status == 0)
        #expect(
            wide.stderr.hasPrefix(
                "fluidgradient: note: frames reach ffmpeg as 8-bit 4:2:0 (yuv420p), so -pix_fmt yuv444p changes how"))
        #expect(probe(scratch.file("w.mp4"))["pix_fmt"] == "yuv444p")
    }

    /// H.264 has no alpha: a transparent background is flattened, and a note says so, as
    /// for a GIF's one-bit alpha (not for an opaque frame, nor with --quiet, nor for
    /// WebM, which keeps it).
    @Test func mp4SaysItDropsTransparency() {
        let scratch = Scratch()
        let transparent = ["render", "--background", "transparent", "--size", "64x36", "--frames", "2", "--fps", "30"]
        let noted = run(transparent + ["-o", scratch.file("t.mp4")])
        #expect(noted.status == 0)
        #expect(
            noted.stderr
                == "fluidgradient: note: H.264 has no alpha, "
                + "so \(scratch.file("t.mp4")) shows the transparent background as black; "
                + "--alpha stacked keeps it for web pages (colour above alpha, for the player), "
                + "and .mov and .webm keep it\n"
        )
        #expect(probe(scratch.file("t.mp4"))["pix_fmt"] == "yuv420p")
        let gif = run(transparent + ["-o", scratch.file("t.gif")])
        #expect(
            gif.stderr
                == "fluidgradient: note: a GIF pixel is opaque or clear, "
                + "so \(scratch.file("t.gif")) cuts soft transparency at 50% into hard edges; .mov and .webm keep it\n"
        )
        for arguments in [
            transparent + ["--quiet", "-o", scratch.file("q.mp4")], transparent + ["-o", scratch.file("t.webm")],
            ["render", "--size", "64x36", "--frames", "2", "-o", scratch.file("o.mp4")],
        ] {
            let quiet = run(arguments)
            #expect(quiet.status == 0)
            #expect(quiet.stderr.isEmpty, "\(arguments): \(quiet.stderr)")
        }
    }

    /// Lossless H.264 in RGB (libx264rgb) decodes as planar gbrp, which is 8-bit RGB too:
    /// it matches the goldens it was made from exactly.
    @Test func planarRGBVideoComparesExactly() {
        let scratch = Scratch()
        let render = ["render", "--preset", "citrus", "--size", "64x36", "--frames", "3", "--fps", "25"]
        #expect(run(render + ["-o", scratch.file("%02d.png")]).status == 0)
        _ = toolOutput([
            "ffmpeg", "-v", "error", "-framerate", "25", "-i", scratch.file("%02d.png"),
            "-c:v", "libx264rgb", "-qp", "0", scratch.file("rgb.mp4"),
        ])
        #expect(probe(scratch.file("rgb.mp4"))["pix_fmt"] == "gbrp")
        let result = run(["compare", scratch.file("%02d.png"), scratch.file("rgb.mp4")])
        #expect(result.stdoutText.hasPrefix("match: 3 frames, 3 matching"), "\(result.stdoutText)")
    }

    @Test func ffmpegOptionsAreSplitAsAShellWould() {
        let scratch = Scratch()
        let result = run([
            "render", "--size", "160x90", "--duration", "0.5", "--ffmpeg-options",
            "-metadata title='My clip' -metadata comment=\"a \\\"b\\\"\"",
            "-o", scratch.file("t.mp4"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.contents == ["t.mp4"], "ffmpeg wrote a stray file")
        let tags = String(
            decoding: toolOutput([
                "ffprobe", "-v", "error", "-show_entries", "format_tags=title,comment", "-of", "default=nw=1",
                scratch.file("t.mp4"),
            ]), as: UTF8.self)
        #expect(tags.contains("TAG:title=My clip"), "\(tags)")
        #expect(tags.contains("TAG:comment=a \"b\""), "\(tags)")
        let unclosed = run([
            "render", "--size", "160x90", "--ffmpeg-options", "-metadata title='My", "-o", scratch.file("u.mp4"),
        ])
        #expect(unclosed.status == 2)
        #expect(unclosed.stderr == "fluidgradient: --ffmpeg-options has an unclosed ': -metadata title='My\n")
    }

    @Test func rawFramesGoToStdoutInTheNamedFormat() throws {
        let scratch = Scratch()
        for (format, bytes) in [("rgba", 4), ("rgb24", 3), ("rgba64le", 8)] {
            let result = run([
                "render", "--preset", "forest", "--size", "64x36", "--frames", "5", "--pixel-format", format, "-o", "-",
            ])
            #expect(result.status == 0)
            #expect(result.stdout.count == 5 * 64 * 36 * bytes)
        }
        let yuv = run([
            "render", "--preset", "forest", "--size", "64x36", "--frames", "5", "--pixel-format", "yuv420p", "-o", "-",
        ])
        #expect(yuv.stdout.count == 5 * (64 * 36 + 2 * 32 * 18))
        // 10-bit codes in 16-bit words: a 16-bit format, which --depth 8 contradicts.
        let deep = run([
            "render", "--preset", "forest", "--size", "64x36", "--frames", "5", "--pixel-format", "yuv420p10le",
            "--depth", "16", "-o", "-",
        ])
        #expect(deep.status == 0 && deep.stdout.count == 5 * 2 * (64 * 36 + 2 * 32 * 18))
        let contradicted = run(
            ["render", "--size", "64x36", "--frames", "1", "--pixel-format", "yuv420p10le", "--depth", "8", "-o", "-"])
        #expect(contradicted.status == 2, "\(contradicted.stderr)")
        #expect(contradicted.stderr.contains("--pixel-format yuv420p10le is 16-bit, but --depth is 8"))
        // The first raw frame is the first PNG frame.
        let raw = run([
            "render", "--preset", "forest", "--size", "64x36", "--frames", "5", "--pixel-format", "rgb24", "-o", "-",
        ])
        #expect(run(["render", "--preset", "forest", "--size", "64x36", "-o", scratch.file("f.png")]).status == 0)
        #expect(
            try PNGFile.read(scratch.file("f.png")).storedSamples == raw.stdout.prefix(64 * 36 * 3).map(UInt16.init))
    }

    /// Frames A–B rendered alone equal frames A–B of the full run, byte for byte.
    @Test func frameRangesMatchTheFullRun() throws {
        let scratch = Scratch()
        #expect(
            run([
                "render", "--preset", "ember", "--size", "96x54", "--frames", "15", "-o", scratch.file("full-%02d.png"),
            ]).status == 0)
        #expect(
            run([
                "render", "--preset", "ember", "--size", "96x54", "--frames", "15", "--frame-range", "10-14", "-o",
                scratch.file("part-%02d.png"),
            ]).status == 0)
        #expect(
            scratch.contents.filter { $0.hasPrefix("part") } == (10...14).map { String(format: "part-%02d.png", $0) })
        for frame in 10...14 {
            let full = try Data(contentsOf: URL(fileURLWithPath: scratch.file(String(format: "full-%02d.png", frame))))
            let part = try Data(contentsOf: URL(fileURLWithPath: scratch.file(String(format: "part-%02d.png", frame))))
            #expect(full == part)
        }
    }

    /// Frames stream to the sink: memory does not grow with the duration.
    @Test func memoryDoesNotGrowWithDuration() {
        func peak(seconds: Int) -> Double {
            let command = RunningCommand(
                [
                    "render", "--preset", "aurora", "--size", "640x360", "--duration", "\(seconds)", "--stats", "-o",
                    "-",
                ],
                stdoutPath: "/dev/null")
            let result = command.wait()
            #expect(result.status == 0)
            return result.reportedPeakMiB ?? .infinity
        }
        let short = peak(seconds: 2), long = peak(seconds: 20)
        #expect(long <= short * 1.1, "2 s: \(short) MiB, 20 s: \(long) MiB")
    }
}

private func probeAlpha(_ path: String) -> String {
    String(
        decoding: toolOutput(["ffprobe", "-v", "error", "-show_entries", "stream_tags", "-of", "default=nw=1", path]),
        as: UTF8.self)
}
