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
    @Test(arguments: [
        "#12345", "#1234", "#GGGGGG", "", "#", "blu e", "12345678", "#0F766E8", "#ＦＦＦ", "#ＦＦ0000", "#١٢٣",
    ])
    func rejectsMalformedColours(text: String) {
        #expect(throws: ColorParseError.self) { try RGBA(parsing: text) }
    }

    @Test func suggestsTheNearestName() {
        #expect(throws: ColorParseError(text: "lightblu", suggestion: "lightblue")) { try RGBA(parsing: "lightblu") }
        let error = ColorParseError(text: "lightblu", suggestion: "lightblue")
        #expect(
            error.description
                == "\"lightblu\" is not a colour: expected #RGB, #RRGGBB, #RRGGBBAA, a CSS colour name, or CSS "
                + "Color 4's rgb(), hsl(), oklab(), oklch() or color() (did you mean \"lightblue\"?)"
        )
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

    /// CSS keywords fold A-Z only: a character whose Unicode lowercase is an ASCII letter
    /// (the Kelvin sign U+212A lowers to `k`, U+0130 to `i` and a dot) names no colour, and
    /// gets the name it resembles as a hint.
    @Test func foldsOnlyASCIILetters() throws {
        #expect(try RGBA(parsing: "BLACK") == RGBA(bytes: 0, 0, 0))
        #expect(try RGBA(parsing: "Khaki") == RGBA(bytes: 0xF0, 0xE6, 0x8C))
        #expect(throws: ColorParseError(text: "blac\u{212A}", suggestion: "black")) {
            try RGBA(parsing: "blac\u{212A}")
        }
        #expect(throws: ColorParseError.self) { try RGBA(parsing: "\u{212A}haki") }
        #expect(throws: ColorParseError.self) { try RGBA(parsing: "l\u{130}me") }
        #expect("blac\u{212A} ÉTÉ Ok".asciiLowercased() == "blac\u{212A} ÉtÉ ok")
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
