import FluidGradient
import Testing

@Suite struct ColorTests {
    @Test(arguments: [
        ("#F00", RGBA(bytes: 255, 0, 0)),
        ("#0f766e", RGBA(bytes: 0x0F, 0x76, 0x6E)),
        ("#0F766E80", RGBA(bytes: 0x0F, 0x76, 0x6E, 0x80)),
        ("  teal ", RGBA(bytes: 0, 128, 128)),
        ("RebeccaPurple", RGBA(bytes: 0x66, 0x33, 0x99)),
        ("transparent", RGBA.clear),
    ])
    func parsesEveryForm(text: String, expected: RGBA) throws {
        #expect(try RGBA(parsing: text) == expected)
    }

    // Fullwidth digits (U+FF10...) are hex digits to `hexDigitValue`, not to a colour.
    @Test(arguments: ["#12345", "#1234", "#GGGGGG", "", "#", "blu e", "12345678", "#0F766E8", "#ＦＦＦ", "#ＦＦ0000", "#١٢٣"])
    func rejectsMalformedColours(text: String) {
        #expect(throws: ColorParseError.self) { try RGBA(parsing: text) }
    }

    @Test func suggestsTheNearestName() {
        #expect(throws: ColorParseError(text: "lightblu", suggestion: "lightblue")) { try RGBA(parsing: "lightblu") }
        let error = ColorParseError(text: "lightblu", suggestion: "lightblue")
        #expect(error.description == "\"lightblu\" is not a colour: expected #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name (did you mean \"lightblue\"?)")
    }

    /// The hint is for near misses: a long word is not compared letter by letter with
    /// every name (`editDistance` stops past its limit), and the answer is the same.
    @Test func aLongWordGetsNoHint() {
        let long = String(repeating: "a", count: 100_000)
        #expect(throws: ColorParseError(text: long, suggestion: nil)) { try RGBA(parsing: long) }
        #expect(editDistance(long, "aqua") == 3)
        #expect(editDistance("lightblu", "lightblue") == 1)
        #expect(editDistance("kitten", "sitting", limit: 3) == 3)
        #expect(editDistance("kitten", "sitting", limit: 2) == 3)
        #expect(editDistance("abcdef", "uvwxyz") == 3)
    }

    @Test func knowsAllCSSNames() throws {
        #expect(RGBA.cssNames.count == 148)
        #expect(try RGBA(parsing: "gray") == RGBA(parsing: "grey"))
        #expect(try RGBA(parsing: "aqua") == RGBA(parsing: "cyan"))
    }

    @Test func showsHexAndBytes() throws {
        let color = try RGBA(parsing: "#0F766E")
        #expect(color.hex == "#0F766E")
        #expect(color.bytes == (15, 118, 110, 255))
        #expect(RGBA(bytes: 1, 2, 3, 4).hex == "#01020304")
        #expect(color.premultiplied == SIMD4(15.0 / 255, 118.0 / 255, 110.0 / 255, 1))
        let half = RGBA(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        #expect(half.premultiplied == SIMD4(0.5, 0.25, 0, 0.5))
    }
}

@Suite struct SplitMix64Tests {
    /// The first outputs for seed 0 from the published SplitMix64 reference.
    @Test func matchesTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func unitValuesStayInRange() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<10_000 {
            let u = generator.nextUnit()
            #expect(u >= 0 && u < 1)
        }
        var ranged = SplitMix64(seed: 7)
        let value = ranged.next(in: 0.15...0.75)
        #expect(value >= 0.15 && value <= 0.75)
    }

    @Test func streamsAreReproducibleAndDistinct() {
        var a = SplitMix64(seed: 7, stream: 0, 3, 1)
        var b = SplitMix64(seed: 7, stream: 0, 3, 1)
        var c = SplitMix64(seed: 7, stream: 0, 3, 2)
        var d = SplitMix64(seed: 7, stream: 1, 3, 1)
        let first = a.next()
        #expect(first == b.next())
        #expect(first != c.next())
        #expect(first != d.next())
    }

    @Test func rangesSnapToTheirStep() {
        let range = ParameterRange(0.2, 0.6, step: 0.1)
        #expect(abs(range.value(at: 0.26) - 0.3) < 1e-12)
        #expect(range.value(at: 0.999) <= 0.6)
        #expect(range.value(at: 0) == 0.2)
        #expect(ParameterRange(0.2, 0.6).value(at: 0.5) == 0.4)
        #expect(range.clamp(0.9) == 0.6)
        #expect(range.description == "0.2...0.6/0.1")
    }
}

@Suite struct JSONParserTests {
    @Test func parsesValuesInOrder() throws {
        let node = try JSONParser.parse(#"{"b": [1, -2.5e1, true, null], "a": "x\u00e9\n\ud83d\ude00"}"#)
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[0].value.value == .array([JSONNode(.number(1)), JSONNode(.number(-25)), JSONNode(.bool(true)), JSONNode(.null)]))
        #expect(members[1].value.value == .string("xé\n😀"))
    }

    @Test(arguments: [
        (#"{"a": 1,}"#, 1, 9, "expected a quoted key but found '}'"),
        ("{\n  \"a\": 01\n}", 2, 9, "a number cannot start with 0"),
        (#"{"a": 1 "b": 2}"#, 1, 9, "expected ',' or '}' but found '\"'"),
        (#"{"a": "x"#, 1, 9, "unterminated string"),
        (#"{"a": 1, "a": 2}"#, 1, 10, "duplicate key \"a\""),
        ("[1, 2] x", 1, 8, "unexpected text after the end of the document"),
        ("", 1, 1, "expected a value but found the end of the file"),
    ])
    func reportsWhereItBroke(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONSyntaxError(message: message, line: line, column: column)) { try JSONParser.parse(text) }
    }
}
