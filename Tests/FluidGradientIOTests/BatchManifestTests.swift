import FluidGradient
import FluidGradientIO
import Testing

/// Batch manifests: expansion, layering of settings, validation and shards.
@Suite struct BatchManifestTests {
    static let manifest = """
        {
          "output": "out/{name}/{name}-{size}.{ext}",
          "defaults": { "fps": 30, "duration": 2, "loop": true, "seed": 7 },
          "palettes": [
            { "preset": "aurora", "speed": 0.3 },
            { "name": "brand", "colors": ["#FF5F6D", "#FFC371"], "fps": 24 },
            { "name": "from-file", "palette": "brand.txt" }
          ],
          "sizes": ["64x36", "36x64"],
          "formats": ["mp4", "png"]
        }
        """

    static func parse(_ text: String) throws(BatchManifestError) -> BatchManifest {
        try BatchManifest(json: Array(text.utf8), file: "m.json")
    }

    static func jobs(_ manifest: BatchManifest) -> [BatchJob] {
        var aurora = Preset(colors: [RGBA(bytes: 1, 2, 3)])
        aurora.name = "aurora"
        aurora.speed = 0.6
        aurora.fps = 60
        return manifest.jobs(
            loadPreset: { name in name == "aurora" ? .success(aurora) : .failure(.unreadable("no such preset")) },
            loadPalette: { file in
                file == "brand.txt" ? .success([.white, .black]) : .failure(.unreadable("no such file"))
            })
    }

    @Test func expandsTheMatrixInADeterministicOrder() throws {
        let jobs = Self.jobs(try Self.parse(Self.manifest))
        #expect(jobs.count == 12)
        #expect(jobs.map(\.index) == Array(0..<12))
        #expect(
            jobs.prefix(4).map(\.output) == [
                "out/aurora/aurora-64x36.mp4", "out/aurora/aurora-64x36.png", "out/aurora/aurora-36x64.mp4",
                "out/aurora/aurora-36x64.png",
            ])
        #expect(jobs.map(\.label)[4] == "brand 64x36 mp4")
        #expect(Set(jobs.map(\.output)).count == 12)
    }

    @Test func layersPresetThenDefaultsThenPaletteFileThenTheEntry() throws {
        let jobs = Self.jobs(try Self.parse(Self.manifest))
        let aurora = try jobs[0].preset.get(), brand = try jobs[4].preset.get(), file = try jobs[8].preset.get()
        // The preset file's fps 60 gives way to the defaults' 30; the entry's speed wins over the preset's.
        #expect(aurora.fps == 30 && aurora.speed == 0.3 && aurora.loop && aurora.seed == 7 && aurora.duration == 2)
        #expect(aurora.colors == [RGBA(bytes: 1, 2, 3)] && aurora.name == "aurora")
        #expect((aurora.width, aurora.height) == (64, 36))
        #expect(brand.fps == 24 && brand.colors.map(\.hex) == ["#FF5F6D", "#FFC371"])
        #expect(file.colors == [.white, .black])
        #expect((try jobs[2].preset.get().width, try jobs[2].preset.get().height) == (36, 64))
    }

    @Test func aMissingReferenceFailsOnlyItsJobs() throws {
        let manifest = try Self.parse(
            Self.manifest.replacingOccurrences(of: "\"palette\": \"brand.txt\"", with: "\"palette\": \"gone.txt\""))
        let jobs = Self.jobs(manifest)
        #expect(jobs.filter { (try? $0.preset.get()) == nil }.map(\.name) == Array(repeating: "from-file", count: 4))
    }

    @Test func sidecarsChangeWithAnyInput() throws {
        let jobs = Self.jobs(try Self.parse(Self.manifest))
        let changed = Self.jobs(try Self.parse(Self.manifest.replacingOccurrences(of: "#FFC371", with: "#FFC372")))
        for (a, b) in zip(jobs, changed) {
            #expect(
                (a.sidecar(version: "1", outputBytes: nil) == b.sidecar(version: "1", outputBytes: nil))
                    == (a.name != "brand"))
            #expect(a.sidecar(version: "1", outputBytes: nil) != a.sidecar(version: "2", outputBytes: nil))
        }
    }

    @Test func theEncodeSizeIsReadAndChangesTheSidecarsOfWhatItShrinks() throws {
        #expect(try Self.parse(Self.manifest).encodeSize == nil)
        let full = try Self.parse(
            Self.manifest.replacingOccurrences(of: "\"formats\"", with: "\"encodeSize\": \"full\", \"formats\""))
        #expect(full.encodeSize == .full)
        let sized = try Self.parse(
            Self.manifest.replacingOccurrences(of: "\"formats\"", with: "\"encodeSize\": \"32x18\", \"formats\""))
        #expect(sized.encodeSize == .size(width: 32, height: 18))
        for (plain, shrunk) in zip(Self.jobs(full), Self.jobs(sized)) {
            let preset = try plain.preset.get()
            #expect(
                try plain.encodeSize(of: preset)
                    == (plain.format == .png
                        ? nil : EncodeSize(width: preset.width, height: preset.height, reason: .requested)))
            // 36x64 cannot take 32x18: those jobs fail when planned, as render's --encode-size would.
            guard plain.format == .mp4, plain.width == 64 else { continue }
            #expect(try shrunk.encodeSize(of: preset) == EncodeSize(width: 32, height: 18, reason: .requested))
            let sidecar = try #require(shrunk.sidecar(version: "1", outputBytes: nil))
            #expect(sidecar.contains("\"encodeSize\": \"32x18\""), "\(sidecar)")
            #expect(plain.sidecar(version: "1", outputBytes: nil)?.contains("encodeSize") == false)
        }
        Self.expectError(
            #"{ "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["mp4"], "encodeSize": "half" }"#,
            path: "encodeSize", contains: "\"half\" is not auto, full or a size such as 640x360")
        Self.expectError(
            #"{ "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["mp4"], "encodeSize": 320 }"#,
            path: "encodeSize", contains: "expected a string")
    }

    static func expectError(
        _ text: String, path: String, contains fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try parse(text)
            Issue.record("accepted", sourceLocation: sourceLocation)
        } catch {
            // `m.json:LINE: path: reason`, or `m.json:LINE: reason` for the document.
            let place = error.description.prefix { $0 != " " }
            #expect(place.hasPrefix("m.json:") && place.hasSuffix(":"), "\(error)", sourceLocation: sourceLocation)
            let rest = error.description.dropFirst(place.count + 1)
            #expect(path.isEmpty || rest.hasPrefix("\(path): "), "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func validationErrorsNameTheLine() {
        do {
            _ = try Self.parse(
                "{ \"palettes\": [\n  { \"name\": \"a\", \"colors\": [\"red\"] },\n"
                    + "  { \"name\": \"b\", \"colors\": [\"red\"], \"speed\": -4 }\n],\n"
                    + "\"sizes\": [\"64x36\"], \"formats\": [\"png\"] }"
            )
            Issue.record("accepted")
        } catch {
            #expect(error.description == "m.json:3: palettes[1].speed: -4 is outside the allowed range 0...10")
        }
    }

    @Test func validationErrorsNameTheKeyPath() {
        Self.expectError("{", path: "", contains: "malformed JSON")
        Self.expectError(
            #"{ "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["mp4"], "outputs": "x" }"#,
            path: "outputs", contains: "did you mean \"output\"?")
        Self.expectError(#"{ "sizes": ["64x36"], "formats": ["mp4"] }"#, path: "palettes", contains: "missing")
        Self.expectError(
            #"{ "palettes": [], "sizes": ["64x36"], "formats": ["mp4"] }"#, path: "palettes",
            contains: "at least one palette")
        Self.expectError(
            #"{ "palettes": [{ "preset": "aurora" }], "formats": ["mp4"] }"#, path: "sizes",
            contains: "missing: a manifest needs \"sizes\", such as")
        Self.expectError(
            #"{ "palettes": [{ "preset": "aurora" }], "sizes": ["64x36"], "formats": [] }"#, path: "formats",
            contains: "expected at least one format")
        Self.expectError(
            #"{ "palettes": [{ "colors": ["red"] }], "sizes": ["64x36"], "formats": ["mp4"] }"#, path: "palettes[0]",
            contains: "needs a \"name\"")
        Self.expectError(
            #"{ "palettes": [{ "name": "a", "palette": "p.txt", "colors": ["red"] }], "#
                + #""sizes": ["64x36"], "formats": ["mp4"] }"#,
            path: "palettes[0]", contains: "\"palette\" and \"colors\" both set the blob colours; give one")
        Self.expectError(
            #"{ "palettes": [{ "name": "a", "palette": "p.txt", "#
                + #""blobs": [{ "color": "red", "center": [0.5, 0.5], "radius": [0.3, 0.3] }] }], "#
                + #""sizes": ["64x36"], "formats": ["mp4"] }"#,
            path: "palettes[0]", contains: "\"palette\" and \"blobs\" both set the blob colours; give one")
        Self.expectError(
            #"{ "palettes": [{ "name": "a", "seed": 1 }], "sizes": ["64x36"], "formats": ["mp4"] }"#,
            path: "palettes[0]", contains: "needs \"preset\", \"palette\", \"colors\" or \"blobs\"")
        Self.expectError(
            #"{ "palettes": [{ "name": "a b", "colors": ["red"] }], "sizes": ["64x36"], "formats": ["mp4"] }"#,
            path: "palettes[0].name", contains: "not a usable name")
        Self.expectError(
            #"{ "palettes": [{ "name": "a", "colors": ["nope"] }], "sizes": ["64x36"], "formats": ["mp4"] }"#,
            path: "palettes[0].colors[0]", contains: "is not a colour")
        Self.expectError(
            #"{ "palettes": [{ "name": "a", "colors": ["red"] }, { "name": "a", "colors": ["blue"] }], "#
                + #""sizes": ["64x36"], "formats": ["mp4"] }"#,
            path: "palettes[1].name", contains: "already the name of palettes[0]")
        Self.expectError(
            #"{ "palettes": [{ "preset": "a" }], "sizes": ["0x36"], "formats": ["mp4"] }"#, path: "sizes[0]",
            contains: "each side must be")
        Self.expectError(
            #"{ "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["avi"] }"#, path: "formats[0]",
            contains: "expected mp4, mov, webm, gif, webp, apng, avif, png or bundle")
        Self.expectError(
            #"{ "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["mp4"], "#
                + #""defaults": { "colors": ["red"] } }"#,
            path: "defaults.colors", contains: "not a known key")
        Self.expectError(
            #"{ "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["mp4"], "defaults": { "fps": 0 } }"#,
            path: "defaults.fps", contains: "outside the allowed range")
    }

    @Test func outputTemplateErrorsNameTheOutputKey() {
        Self.expectError(
            #"{ "output": "x/{nme}.{ext}", "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["mp4"] }"#,
            path: "output", contains: "\"{nme}\" is not a placeholder")
        Self.expectError(
            #"{ "output": "x/{name}.mp4", "palettes": [{ "preset": "a" }], "#
                + #""sizes": ["64x36", "36x64"], "formats": ["mp4"] }"#,
            path: "output",
            contains: "gives x/a.mp4 to both a 64x36 mp4 and a 36x64 mp4; add {size} so each output has its own path")
        // The advice names only what tells the two jobs apart.
        Self.expectError(
            #"{ "output": "o/{name}.png", "palettes": [{ "preset": "a" }], "#
                + #""sizes": ["64x36"], "formats": ["png", "mp4"] }"#,
            path: "output", contains: "gives o/a.png to both a 64x36 png and a 64x36 mp4; add {ext} so")
        Self.expectError(
            #"{ "output": "o/x.png", "palettes": [{ "preset": "a" }, { "preset": "b" }], "#
                + #""sizes": ["64x36"], "formats": ["png"] }"#,
            path: "output", contains: "add {name} so")
        // A file name that would not say what the file holds.
        Self.expectError(
            #"{ "output": "o/{name}.png", "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["mp4"] }"#,
            path: "output", contains: "gives a 64x36 mp4 a .png name, o/a.png; end the template in .{ext} (or .mp4)")
        Self.expectError(
            #"{ "output": "o.d/{name}", "palettes": [{ "preset": "a" }], "sizes": ["64x36"], "formats": ["gif"] }"#,
            path: "output", contains: "gives a 64x36 gif a name without an extension, o.d/a;")
    }

    @Test func shardsPartitionTheJobs() throws {
        let indices = Array(0..<18)
        for count in 1...5 {
            let shares = (0..<count).map { k in indices.filter { Shard(index: k, count: count).includes($0) } }
            #expect(shares.flatMap { $0 }.sorted() == indices)
            #expect(shares.map(\.count).max()! - shares.map(\.count).min()! <= 1)
        }
        #expect(Shard(parsing: "2/4") == Shard(index: 2, count: 4))
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b"] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
    }

    @Test func shardsComeFromKubernetesAndSlurm() throws {
        #expect(try Shard.fromEnvironment([:], count: nil) == nil)
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "", "SLURM_ARRAY_TASK_ID": ""], count: nil) == nil)
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], count: 3) == Shard(index: 2, count: 3))
        #expect(
            try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "1", "FLUIDGRADIENT_SHARD_COUNT": "4"], count: nil)
                == Shard(index: 1, count: 4))
        #expect(throws: ShardEnvironmentError.indexWithoutCount) {
            try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "1"], count: nil)
        }
        #expect(throws: ShardEnvironmentError.indexNotBelowCount(3, 3)) {
            try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3"], count: 3)
        }
        let notAnIndex = #expect(throws: ShardEnvironmentError.self) {
            try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "x"], count: 3)
        }
        #expect(
            notAnIndex?.description
                == "JOB_COMPLETION_INDEX=x is not an index; "
                + "it should be this pod's index, 0 or more, as Kubernetes sets it"
        )
        #expect(
            try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"], count: nil)
                == Shard(index: 2, count: 3))
        // --array=1-3: IDs start at the array's minimum.
        #expect(
            try Shard.fromEnvironment(
                ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"], count: nil)
                == Shard(index: 2, count: 3))
        #expect(throws: ShardEnvironmentError.taskOutside(7, minimum: 0, count: 3)) {
            try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "3"], count: nil)
        }
        #expect(throws: ShardEnvironmentError.countWithoutIndex) { try Shard.fromEnvironment([:], count: 3) }
    }

    /// Shard variables come from outside: a difference or a message that would overflow
    /// is a refusal, never a trap.
    @Test(arguments: [
        ["SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"],
        ["SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_MIN": "-1", "SLURM_ARRAY_TASK_COUNT": "3"],
        ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "-9223372036854775808"],
        ["JOB_COMPLETION_INDEX": "0", "FLUIDGRADIENT_SHARD_COUNT": "-9223372036854775808"],
    ])
    func overflowingShardVariablesAreRefused(environment: [String: String]) {
        #expect(throws: ShardEnvironmentError.self) { try Shard.fromEnvironment(environment, count: nil) }
    }
}
