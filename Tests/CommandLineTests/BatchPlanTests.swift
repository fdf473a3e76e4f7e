import Foundation
import Testing

/// `fluidgradient batch`'s plan: dry runs, and the manifests and outputs it refuses
/// before anything renders.
@Suite(.serialized) struct BatchPlanTests {
    @Test func aDryRunListsTheJobsInOrderAsTextOrJSON() throws {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch)
        let text = run(["batch", manifest, "--dry-run"])
        #expect(text.status == 0)
        let lines = text.stdoutText.split(separator: "\n")
        #expect(lines.count == 20)
        #expect(lines[0] == "18 of 18 jobs:")
        #expect(
            lines[2].hasPrefix("0   aurora 64x36 mp4 ")
                && lines[2].contains(scratch.file("out/aurora/aurora-64x36.mp4") + " "))
        #expect(lines.dropFirst(2).allSatisfy { $0.hasSuffix("  render") })
        let json = run(["batch", manifest, "--dry-run", "--json", "--shard", "1/2"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["shard"] as? String == "1/2")
        #expect(object["total"] as? Int == 18)
        let jobs = try #require(object["jobs"] as? [[String: Any]])
        #expect(jobs.map { $0["index"] as! Int } == Array(stride(from: 1, to: 18, by: 2)))
        #expect(
            jobs.allSatisfy {
                $0["plan"] as? String == "render" && ($0["output"] as! String).hasPrefix(scratch.file("out/"))
            })
        #expect(scratch.contents == ["batch.json", "colors.txt"], "a dry run writes nothing")
    }

    /// A dry run says which jobs could not write their output (/proc/sys takes no new
    /// entries, even from root), as the real run then reports them.
    @Test func aDryRunFindsAnUnwritableOutputDirectory() {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(
            scratch,
            manifest: BatchCommandTests.manifest.replacingOccurrences(
                of: #""out/{name}/{name}-{size}.{ext}""#, with: #""/proc/sys/fluidgradient/{name}-{size}.{ext}""#))
        let expected =
            "cannot write /proc/sys/fluidgradient/aurora-64x36.mp4: /proc/sys is not writable (Permission denied); "
            + "choose a directory you can write to"
        let plan = run(["batch", manifest, "--dry-run"])
        #expect(plan.status == 0)
        let lines = plan.stdoutText.split(separator: "\n").dropFirst(2)
        #expect(
            lines.count == 18 && lines.allSatisfy { $0.contains("  fails: cannot write /proc/sys/fluidgradient/") },
            "\(plan.stdoutText)")
        #expect(lines.first?.hasSuffix("fails: " + expected) == true, "\(plan.stdoutText)")
        let result = run(["batch", manifest])
        #expect(result.status == 3)
        #expect(result.stderr.split(separator: "\n").first?.hasSuffix(expected) == true, "\(result.stderr)")
    }

    @Test func aSizeOrFormatListedTwiceIsNamed() {
        let scratch = Scratch()
        let sizes = BatchCommandTests.setUp(
            scratch,
            manifest: BatchCommandTests.manifest.replacingOccurrences(
                of: #""64x36", "48x48""#, with: #""64x36", "64X36""#))
        let twice = run(["batch", sizes])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("sizes[1]: 64x36 is already sizes[0]; list each size once"), "\(twice.stderr)")
        let formats = BatchCommandTests.setUp(
            scratch, manifest: BatchCommandTests.manifest.replacingOccurrences(of: #""webm""#, with: #""MP4""#))
        let again = run(["batch", formats])
        #expect(again.status == 2)
        #expect(
            again.stderr.contains("formats[1]: mp4 is already formats[0]; list each format once"), "\(again.stderr)")
    }

    /// A name the output can have but its sidecar (19 bytes more) cannot fails in the plan,
    /// before anything renders.
    @Test func anOutputNameWithNoRoomForItsSidecarFailsInThePlan() {
        let scratch = Scratch()
        let name = String(repeating: "n", count: 240)
        let manifest = BatchCommandTests.setUp(
            scratch,
            manifest:
                #"{ "output": "o/\#(name)-{size}.{ext}", "palettes": [{ "preset": "aurora" }], "#
                + #""sizes": ["32x18"], "formats": ["png"] }"#
        )
        let plan = run(["batch", manifest, "--dry-run"])
        #expect(
            plan.stdoutText.contains(
                "leaves no room for its sidecar (269 bytes, at most 255); shorten the output template"),
            "\(plan.stdoutText)")
        let result = run(["batch", manifest])
        #expect(result.status == 3)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("o")))
    }

    /// The plan follows an output that is a link, as the write will.
    @Test func thePlanFollowsALinkedOutput() throws {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(
            scratch,
            manifest:
                #"{ "output": "o/{name}.{ext}", "palettes": [{ "preset": "aurora" }], "#
                + #""sizes": ["32x18"], "formats": ["png"] }"#
        )
        try FileManager.default.createDirectory(atPath: scratch.file("o"), withIntermediateDirectories: true)
        #expect(symlink("../gone/aurora.png", scratch.file("o/aurora.png")) == 0)
        let plan = run(["batch", manifest, "--dry-run"])
        #expect(
            plan.stdoutText.contains(
                "fails: cannot write \(scratch.file("o/aurora.png")): it is a symbolic link to a missing file"),
            "\(plan.stdoutText)")
    }

    @Test func anInvalidManifestRendersNothing() {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(
            scratch, manifest: BatchCommandTests.manifest.replacingOccurrences(of: #""webm""#, with: #""avi""#))
        let result = run(["batch", manifest])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("fluidgradient: \(manifest):10: formats[1]:"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(scratch.contents == ["batch.json", "colors.txt"])
    }
}
