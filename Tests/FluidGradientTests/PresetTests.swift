import FluidGradient
import Testing

/// DESIGN section 8: the preset file contract, and one test per kind of bad input.
@Suite struct PresetTests {
    static let designExample = """
        {
          "name": "aurora",
          "description": "Teal and violet northern lights on deep navy",
          "colors": ["#0F766E", "#14B8A6", "#6D28D9", "#1D4ED8", "#22D3EE"],
          "highlights": ["#A7F3D0", "#F0ABFC"],
          "background": "#020617",
          "speed": 0.6,
          "blur": 0.75,
          "seed": 7,
          "blobSize": { "min": 0.15, "max": 0.75 },
          "blobAspect": { "min": 0.25, "max": 1.75 },
          "opacity": { "min": 0.5, "max": 1.0 },
          "edges": "bleed",
          "size": "1920x1080",
          "fps": 60,
          "duration": 10,
          "loop": true
        }
        """

    static func parse(_ text: String) throws(PresetError) -> Preset {
        try Preset(json: Array(text.utf8), file: "test.json")
    }

    static func expectError(
        _ text: String, path: String, contains fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try parse(text)
            Issue.record("expected an error at \(path)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.file == "test.json", sourceLocation: sourceLocation)
            #expect(PresetError.text(of: error.path) == path, sourceLocation: sourceLocation)
            #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
        }
    }

    @Test func readsTheDesignExample() throws {
        let preset = try Self.parse(Self.designExample)
        #expect(preset.name == "aurora")
        #expect(preset.colors.map(\.hex) == ["#0F766E", "#14B8A6", "#6D28D9", "#1D4ED8", "#22D3EE"])
        #expect(preset.highlights.map(\.hex) == ["#A7F3D0", "#F0ABFC"])
        #expect(preset.background == .color(try RGBA(parsing: "#020617")))
        #expect(preset.speed == 0.6 && preset.blur == 0.75 && preset.seed == 7)
        #expect(preset.ranges.size == ParameterRange(0.15, 0.75))
        #expect(preset.ranges.aspect == ParameterRange(0.25, 1.75))
        #expect(preset.ranges.opacity == ParameterRange(0.5, 1))
        #expect(preset.edges == .bleed && preset.width == 1920 && preset.height == 1080)
        #expect(preset.fps == 60 && preset.duration == 10 && preset.loop)
        #expect(preset.frameCount == 600)
    }

    @Test func onlyColorsIsRequired() throws {
        let preset = try Self.parse(#"{ "colors": ["red"] }"#)
        #expect(preset.colors == [RGBA(bytes: 255, 0, 0)])
        #expect(preset.highlights.isEmpty)
        #expect(preset.speed == 1 && preset.blur == 0.75 && preset.edges == .bleed)
        #expect(preset.ranges == BlobRanges())
        #expect(
            preset.width == 1920 && preset.height == 1080 && preset.fps == 60 && preset.duration == 10 && !preset.loop)
    }

    @Test func readsExplicitBlobsAndGradients() throws {
        let preset = try Self.parse(
            """
            {
              "blobs": [{ "color": "#3366FF", "center": [0.2, 0.3], "radius": [0.5, 0.6], "opacity": 0.9 }],
              "highlightBlobs": [{ "color": "white", "center": [0.7, 0.7], "radius": [0.2, 0.2] }],
              "background": { "type": "linear", "angle": 300, "stops": [
                { "location": 1, "color": "#123" }, { "location": 0, "color": "#000" }, \
            { "location": 2, "color": "#fff" } ] },
              "speed": 0
            }
            """)
        #expect(
            preset.blobs == [
                Blob(
                    color: try RGBA(parsing: "#3366FF"), center: SIMD2(0.2, 0.3), radius: SIMD2(0.5, 0.6), opacity: 0.9)
            ])
        #expect(preset.highlightBlobs?.first?.opacity == 1)
        guard case .gradient(let gradient) = preset.background else {
            Issue.record("not a gradient")
            return
        }
        #expect(gradient.kind == .linear && gradient.angle == 300)
        // Sorted by location; 2 clamped to 1, after the stop already at 1.
        #expect(gradient.stops.map(\.location) == [0, 1, 1])
        #expect(gradient.stops.map(\.color.hex) == ["#000000", "#112233", "#FFFFFF"])
    }

    @Test func malformedJSON() {
        Self.expectError(
            "{\n  \"colors\": [\"red\",]\n}", path: "",
            contains: "malformed JSON at column 20: expected a value but found ']'")
        // Columns count characters, as an editor does, not the bytes of 日本語.
        Self.expectError(
            "{\n  \"name\": \"日本語\", x }", path: "",
            contains: "malformed JSON at column 18: expected a quoted key")
        Self.expectError("{ \"名\": 1, \"名\": 2 }", path: "", contains: "malformed JSON at column 11: duplicate key")
    }

    @Test func errorsNameTheLineOfTheValue() {
        let text = """
            {
              "colors": ["red"],
              "blobs": [
                { "color": "red", "center": [0.5, 0.5], "radius": [0.2, 0.2] },
                { "color": "red", "center": [0.5, 0.5],
                  "radius": [0.2, 200] }
              ],
              "blobSize": { "max": 0.6 }
            }
            """
        func located(_ text: String) -> (line: Int?, description: String) {
            do {
                _ = try Self.parse(text)
                return (nil, "accepted")
            } catch {
                return (error.line, error.description)
            }
        }
        // blobSize is read before blobs.
        #expect(located(text).description == "test.json:8: blobSize: a range needs \"min\" and \"max\"")
        let fixedRange = text.replacingOccurrences(of: "{ \"max\": 0.6 }", with: "{ \"min\": 0.5, \"max\": 0.6 }")
        #expect(
            located(fixedRange).description
                == "test.json:6: blobs[1].radius[1]: 200 is outside the allowed range -100...100")
        // A missing key points at the object that lacks it.
        #expect(located("\n\n  { \"name\": \"x\" }").line == 3)
        // The document as a whole is named by its file alone.
        #expect(located("\n[1, 2]").description == "test.json: expected an object, found an array")
        // Malformed JSON has its own line and column, and no second line number.
        #expect(
            located("{\n  \"colors\": [\"red\",]\n}").description
                == "test.json:2: malformed JSON at column 20: expected a value but found ']'")
    }

    /// An error carries its key path as components and the line of its value, both
    /// known where it is thrown: a key holding `.` or `[` is one component, on its own line.
    @Test func errorsCarryTheirPathAndLineFromWhereTheyAreThrown() {
        let dotted = #expect(throws: PresetError.self) { try Self.parse("{ \"colors\": [\"red\"],\n  \"a.b[0]\": 1 }") }
        #expect(dotted?.path == [.key("a.b[0]")])
        #expect(dotted?.line == 2)
        let nested = #expect(throws: PresetError.self) {
            try Self.parse(
                "{ \"blobs\": [\n  { \"color\": \"red\", \"center\": [0.5,\n 0.5], \"radius\": [1, \"x\"] }] }")
        }
        #expect(
            nested
                == PresetError(
                    file: "test.json", line: 3, path: [.key("blobs"), .index(0), .key("radius"), .index(1)],
                    reason: .wrongType(expected: "a number", found: "a string")))
    }

    /// The largest seed a file holds exactly is written back as an integer, not 9.007e15.
    @Test func largeSeedsAreWrittenAsIntegers() throws {
        var preset = Preset(colors: [RGBA(bytes: 1, 2, 3)])
        preset.seed = 9_007_199_254_740_991
        #expect(
            preset.jsonText.contains("\"seed\": 9007199254740991\n")
                || preset.jsonText.contains("\"seed\": 9007199254740991,"))
        #expect(try Self.parse(preset.jsonText).seed == 9_007_199_254_740_991)
        #expect(JSONValue.number(1e15).serialized() == "1000000000000000")
        #expect(JSONValue.number(0.25).serialized() == "0.25")
    }

    /// A preset built in code is held to a file's bounds by `validate()`.
    @Test func presetsBuiltInCodeAreValidated() throws {
        for name in PresetFixtures.builtInNames { try PresetFixtures.builtIn(name).validate() }
        func problem(_ change: (inout Preset) -> Void) -> String {
            var preset = Preset(colors: [RGBA(bytes: 1, 2, 3)])
            preset.name = "code"
            change(&preset)
            do {
                try preset.validate()
                return "valid"
            } catch {
                return error.description
            }
        }
        #expect(problem { _ in } == "valid")
        #expect(problem { $0.blur = 3 } == "code: blur: 3 is outside the allowed range 0...1")
        #expect(problem { $0.speed = .nan }.hasPrefix("code: speed: nan is outside"))
        #expect(
            problem { $0.width = 0 } == "code: size: 0x1080 is not a usable size: each side must be 1 to 16384 pixels")
        #expect(
            problem { $0.ranges.size = ParameterRange(0.5, 0.2) } == "code: blobSize: min 0.5 is greater than max 0.2")
        #expect(problem { $0.colors = [] } == "code: colors: expected 1 to 64 colours, found 0")
        #expect(
            problem { $0.blobs = [Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(0.2, 200))] }
                == "code: blobs[0].radius[1]: 200 is outside the allowed range -100...100")
        #expect(
            problem { $0.colors = [RGBA(red: .nan, green: 0.5, blue: 2)] }
                == "code: colors[0]: its red channel, nan, is outside 0...1")
        #expect(
            problem { $0.background = .color(RGBA(red: 0, green: 0, blue: 2)) }
                == "code: background: its blue channel, 2, is outside 0...1")
        #expect(
            problem { $0.ranges.size = ParameterRange(0.2, 0.5, step: 0) }
                == "code: blobSize.step: a step must be greater than 0")
        #expect(
            problem { $0.seed = .max }
                == "code: seed: 18446744073709551615 is outside the allowed range 0...9007199254740991")
    }

    /// DESIGN section 8 and PresetLimits: 1 to 64 blobs; highlight blobs may be none.
    @Test func anEmptyBlobListIsRefused() throws {
        Self.expectError(#"{ "blobs": [] }"#, path: "blobs", contains: "expected 1 to 64 blobs, found 0")
        Self.expectError(
            #"{ "colors": ["red"], "blobs": [] }"#, path: "blobs", contains: "expected 1 to 64 blobs, found 0")
        let none = try Self.parse(#"{ "colors": ["red"], "highlightBlobs": [] }"#)
        #expect(none.highlightBlobs == [])
        var preset = Preset(colors: [.white])
        preset.name = "code"
        preset.blobs = []
        #expect(
            throws: PresetError(
                file: "code", path: [.key("blobs")], reason: .wrongCount(found: 0, allowed: 1...64, blobs: true))
        ) { try preset.validate() }
        preset.blobs = nil
        preset.highlightBlobs = []
        try preset.validate()
    }

    /// A range's step is held to the same rule from a file, in code and on the command line.
    @Test func aRangeStepIsAtMostTheKeysUpperBound() {
        Self.expectError(
            #"{ "colors": ["red"], "opacity": { "min": 0.1, "max": 0.5, "step": 2 } }"#, path: "opacity.step",
            contains: "2 is outside the allowed range 0...1")
        var preset = Preset(colors: [.white])
        preset.name = "code"
        preset.ranges.retargetInterval = ParameterRange(0.1, 0.5, step: .infinity)
        #expect(
            throws: PresetError(
                file: "code", path: [.key("retargetInterval"), .key("step")],
                reason: .outOfRange("inf", allowed: 0...600))
        ) {
            try preset.validate()
        }
    }

    @Test func unknownKey() {
        Self.expectError(
            #"{ "colors": ["red"], "colour": "blue" }"#, path: "colour", contains: "did you mean \"colors\"?")
        Self.expectError(
            #"{ "colors": ["red"], "blobSize": { "min": 0.1, "max": 0.2, "mid": 0.15 } }"#, path: "blobSize.mid",
            contains: "expected one of: min, max, step")
    }

    @Test func wrongType() {
        Self.expectError(
            #"{ "colors": ["red"], "speed": "fast" }"#, path: "speed", contains: "expected a number, found a string")
        Self.expectError(#"{ "colors": "red" }"#, path: "colors", contains: "expected an array, found a string")
        Self.expectError(
            #"{ "colors": ["red"], "loop": 1 }"#, path: "loop", contains: "expected true or false, found a number")
        Self.expectError(#"[1, 2]"#, path: "", contains: "expected an object, found an array")
        Self.expectError(#"{ "colors": ["red"], "seed": 1.5 }"#, path: "seed", contains: "expected a whole number")
    }

    @Test func badColour() {
        Self.expectError(
            ##"{ "colors": ["#0F766E", "#12345"] }"##, path: "colors[1]", contains: "\"#12345\" is not a colour")
        Self.expectError(
            #"{ "colors": ["red"], "background": "nope" }"#, path: "background", contains: "is not a colour")
    }

    @Test func impossibleValues() {
        Self.expectError(
            #"{ "colors": ["red"], "speed": 20 }"#, path: "speed", contains: "20 is outside the allowed range 0...10")
        Self.expectError(
            #"{ "colors": ["red"], "seed": 10000000000000000 }"#, path: "seed",
            contains: "10000000000000000 is outside the allowed range 0...9007199254740991")
        // As written: the nearest double, 9007199254740992, is not the number in the file.
        Self.expectError(
            #"{ "colors": ["red"], "seed": 9007199254740993 }"#, path: "seed",
            contains: "9007199254740993 is outside the allowed range 0...9007199254740991")
        Self.expectError(
            #"{ "colors": ["red"], "fps": 0 }"#, path: "fps", contains: "outside the allowed range 1...240")
        Self.expectError(
            #"{ "colors": ["red"], "blur": -0.1 }"#, path: "blur", contains: "outside the allowed range 0...1")
        Self.expectError(#"{ "colors": [] }"#, path: "colors", contains: "expected 1 to 64 colours, found 0")
        Self.expectError(
            #"{ "colors": ["red"], "edges": "wrap" }"#, path: "edges", contains: "expected bleed, transparent or clamp")
    }

    @Test func impossibleSizes() {
        Self.expectError(
            #"{ "colors": ["red"], "size": "0x0" }"#, path: "size", contains: "each side must be 1 to 16384 pixels")
        Self.expectError(
            #"{ "colors": ["red"], "size": "100000x100000" }"#, path: "size",
            contains: "each side must be 1 to 16384 pixels")
        Self.expectError(#"{ "colors": ["red"], "size": "16000x16000" }"#, path: "size", contains: "too large")
        Self.expectError(
            #"{ "colors": ["red"], "size": "1920 by 1080" }"#, path: "size", contains: "expected WIDTHxHEIGHT")
    }

    @Test func badRanges() {
        Self.expectError(
            #"{ "colors": ["red"], "blobSize": { "min": 0.8, "max": 0.2 } }"#, path: "blobSize",
            contains: "min 0.8 is greater than max 0.2")
        Self.expectError(
            #"{ "colors": ["red"], "opacity": { "min": 0.5, "max": 1.5 } }"#, path: "opacity.max",
            contains: "outside the allowed range 0...1")
        Self.expectError(
            #"{ "colors": ["red"], "blobAspect": { "min": 0.5 } }"#, path: "blobAspect",
            contains: "needs \"min\" and \"max\"")
        Self.expectError(
            #"{ "colors": ["red"], "blobSize": { "min": 0.1, "max": 0.5, "step": 0 } }"#, path: "blobSize.step",
            contains: "greater than 0")
    }

    @Test func missingColors() {
        Self.expectError(#"{ "name": "empty" }"#, path: "colors", contains: "missing")
        // Either key is enough, so the message names both.
        Self.expectError(#"{ "name": "empty" }"#, path: "colors", contains: "or \"blobs\", a list of explicit blobs")
    }

    @Test func badBlobs() {
        Self.expectError(
            #"{ "blobs": [{ "color": "red", "center": [0.5, 0.5] }] }"#, path: "blobs[0]",
            contains: "\"radius\" is missing")
        Self.expectError(
            #"{ "blobs": [{ "color": "red", "center": [0.5], "radius": [1, 1] }] }"#, path: "blobs[0].center",
            contains: "expected two numbers")
    }

    @Test func badGradients() {
        Self.expectError(
            #"{ "colors": ["red"], "background": { "type": "linear", "stops": [{ "location": 0, "color": "red" }] } }"#,
            path: "background.stops", contains: "at least 2 stops")
        Self.expectError(
            #"{ "colors": ["red"], "background": { "type": "spiral", "stops": [] } }"#, path: "background.type",
            contains: "expected linear, radial or conic")
        Self.expectError(
            #"{ "colors": ["red"], "background": { "stops": [{ "color": "red" }, "#
                + #"{ "location": 1, "color": "blue" }] } }"#,
            path: "background.stops", contains: "every stop a location, or none")
    }

    @Test func everyBuiltInPresetIsValidAndDistinct() throws {
        let presets = try PresetFixtures.builtInNames.map { try PresetFixtures.builtIn($0) }
        #expect(presets.count >= 9)
        #expect(Set(presets.map(\.name)) == Set(PresetFixtures.builtInNames))
        #expect(Set(presets.map(\.colors)).count == presets.count)
        #expect(presets.allSatisfy { !$0.description.isEmpty })
    }
}
