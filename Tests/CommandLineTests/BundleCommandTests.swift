import Foundation
import Testing

/// `render --bundle DIR`: every file a site needs for one loop, a page and a manifest, in a
/// directory that appears whole or not at all. (Chromium plays it in BrowserTests/.)
@Suite(.serialized) struct BundleCommandTests {
    /// A small loop: σ ≈ 83 px at 640x360, so the loops are encoded at 320x180.
    static let loop = ["render", "--size", "640x360", "--fps", "10", "--duration", "1", "--loop"]

    /// Rates of the user's for every codec, which skip the search (it runs in the first test).
    static let givenRates = ["--crf", "av1=35", "--crf", "hevc=22", "--crf", "h264=30", "--crf", "vp9=30"]

    private static func manifest(_ directory: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    private static func files(_ manifest: [String: Any]) -> [[String: Any]] { manifest["files"] as! [[String: Any]] }

    @Test func anOpaqueBundleHoldsEveryFileItsManifestAndPageName() throws {
        let scratch = Scratch()
        let directory = scratch.file("web")
        let result = run(Self.loop + ["--bundle", directory])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the loop encoded at 320x180 for 640x360"), "\(result.stderr)")
        let manifest = try Self.manifest(directory)
        let names = Self.files(manifest).map { $0["file"] as! String }
        #expect(
            names == [
                "loop-av1.mp4", "loop-hevc.mp4", "loop-vp9.webm", "loop-h264.mp4", "poster.avif", "poster.webp",
                "poster.jpg", "index.html",
            ])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory)) == Set(names + ["manifest.json"]))
        for file in Self.files(manifest) {
            let name = file["file"] as! String, path = directory + "/" + name
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            #expect(file["bytes"] as? Int == size, "\(name)")
            guard name != "index.html" else { continue }
            let info = probe(path, countFrames: false)
            #expect(info["width"] == String(file["width"] as! Int) && info["codec_name"] == file["codec"] as? String)
            let isLoop = file["role"] as! String == "loop"
            #expect(file["width"] as? Int == (isLoop ? 320 : 640), "\(name)")
            // Blurred frames hold little detail: every file is well within the codecs' own loss.
            #expect((file["psnr"] as! Double) > 40 && (file["largestError"] as! Double) < 16, "\(name): \(file)")
            // No 10-bit file adds banding over the threshold (issue 33, target 6; the control is
            // BundleBandingTests'). The 8-bit files do, as yet: their codecs smooth away the dither
            // (H.264 3.5, the WebP and JPEG posters 2.3 and 2.4 here; lossless H.264 adds 0).
            if file["bitDepth"] as? Int == 8 {
                withKnownIssue("8-bit files band once their codec smooths the dither away") {
                    #expect((file["banding"] as! Double) <= 1, "\(name): \(file)")
                }
            } else {
                #expect((file["banding"] as! Double) <= 1, "\(name): \(file)")
            }
            guard isLoop else { continue }
            // Each loop's rate was searched, and the whole loop meets its codec's bar.
            #expect(file["crf"] is Int && file["rateChoice"] as? String == "searched", "\(name): \(file)")
            let bar = name.contains("h264") ? 49.0 : 50
            #expect((file["psnr"] as! Double) >= bar && (file["largestError"] as! Double) <= 8, "\(name): \(file)")
        }
        let hevc = Self.files(manifest).first { $0["file"] as! String == "loop-hevc.mp4" }!
        #expect((hevc["type"] as! String).hasPrefix("video/mp4; codecs=\"hvc1.2.4.L"))
        let page = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        for name in names where name != "index.html" { #expect(page.contains("\"\(name)\""), "\(name)") }
        #expect(manifest["encodedWidth"] as? Int == 320 && manifest["displayWidth"] as? Int == 640)
        #expect(manifest["measuredAt"] as? [Double] == [0, 0.2, 0.4, 0.6, 0.8])
    }

    @Test func aTransparentBundleStacksAlphaForThePlayer() throws {
        let scratch = Scratch()
        let directory = scratch.file("web")
        let result = run(Self.loop + ["--background", "transparent", "--bundle", directory] + Self.givenRates)
        #expect(result.status == 0, "\(result.stderr)")
        let files = Self.files(try Self.manifest(directory))
        // The user's rates win over the search.
        let rates = Dictionary(
            uniqueKeysWithValues: files.compactMap { file in
                (file["crf"] as? Int).map { (file["file"] as! String, "\($0) \(file["rateChoice"] as! String)") }
            })
        #expect(rates["loop-h264-stacked.mp4"] == "30 given", "\(rates)")
        #expect(rates["loop-av1-stacked.mp4"] == "35 given", "\(rates)")
        let loops = files.filter { $0["role"] as! String == "stacked-alpha-loop" }
        #expect(
            loops.map { $0["file"] as! String } == [
                "loop-av1-stacked.mp4", "loop-hevc-stacked.mp4",
                "loop-h264-stacked.mp4",
            ])
        // Two halves of 180 rows, each padded to 192 (StackedAlpha.paddedHeight).
        #expect(loops.allSatisfy { $0["height"] as? Int == 384 })
        #expect(files.contains { $0["file"] as! String == "poster.png" && $0["role"] as! String == "poster" })
        #expect(files.contains { $0["file"] as! String == "fluidgradient-player.js" })
        #expect(!FileManager.default.fileExists(atPath: directory + "/poster.jpg"))
        let page = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        #expect(page.contains("<script src=\"fluidgradient-player.js\"></script>"))
    }

    @Test func aSecondRunReplacesTheBundleAndOtherDirectoriesAreRefused() throws {
        let scratch = Scratch()
        let directory = scratch.file("web")
        #expect(run(Self.loop + ["--bundle", directory, "--quiet"] + Self.givenRates).status == 0)
        let again = run(Self.loop + ["--bundle", directory, "--quiet", "--seed", "5"] + Self.givenRates)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(scratch.contents.filter { $0.hasPrefix(".") }.isEmpty, "\(scratch.contents)")

        let notes = scratch.file("notes")
        try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: notes + "/todo.txt", contents: Data("keep".utf8))
        let refused = run(Self.loop + ["--bundle", notes])
        #expect(refused.status == 2 && refused.stderr.contains("holds other files"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: notes) == ["todo.txt"])
    }

    @Test func optionsTheBundleChoosesAreRefused() {
        let scratch = Scratch()
        for extra in [
            ["-o", "x.mp4"], ["--codec", "av1"], ["--time", "1"], ["--alpha", "stacked"], ["--depth", "16"],
        ] {
            let result = run(Self.loop + ["--bundle", scratch.file("web")] + extra)
            #expect(result.status == 2, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains("--bundle chooses \(extra[0]) itself"), "\(extra): \(result.stderr)")
        }
        for rate in ["av1=64", "opus=3", "h264", "hevc=x"] {
            let result = run(Self.loop + ["--bundle", scratch.file("web"), "--crf", rate])
            #expect(result.status == 2 && result.stderr.contains("is not CODEC=CRF"), "\(rate): \(result.stderr)")
        }
        let alone = run(Self.loop + ["-o", scratch.file("x.mp4"), "--crf", "h264=20"])
        #expect(alone.status == 2 && alone.stderr.contains("give --bundle DIR"), "\(alone.stderr)")
        let larger = run(Self.loop + ["--bundle", scratch.file("web"), "--encode-size", "1280x720"])
        #expect(larger.status == 2 && larger.stderr.contains("larger than the output"), "\(larger.stderr)")
        #expect(scratch.contents.isEmpty, "\(scratch.contents)")
    }

    /// A failing encoder fails the bundle: exit 3, its stderr quoted, and nothing left, not
    /// even the hidden directory it was built in.
    @Test func aFailingEncoderLeavesNothing() throws {
        let scratch = Scratch()
        let wrapper = try script(
            "#!/bin/sh\ncase \"$*\" in *libx265*) echo 'x265 refused' >&2; exit 1;; esac\nexec ffmpeg \"$@\"\n",
            named: "ffmpeg", in: scratch)
        let result = run(Self.loop + ["--bundle", scratch.file("web")], environment: ["FLUIDGRADIENT_FFMPEG": wrapper])
        #expect(result.status == 3 && result.stderr.contains("x265 refused"), "\(result.stderr)")
        #expect(scratch.contents == ["ffmpeg"], "\(scratch.contents)")
    }
}
