import FluidGradient
import Testing

/// CSS Color 4's functional colours (DESIGN section 13) as every colour field reads them.
@Suite struct CSSColorTests {
    /// The rgb() forms give the channels `#RRGGBB` gives, exactly: n/255.
    @Test(arguments: [
        "rgb(255 95 109)", "rgb(255, 95, 109)", "RGB( 255  95  109 )", "rgba(255 95 109)", "rgb(255 95 109 / 1)",
        "rgb(100% 37.2549019607843% 42.7450980392157%)", "rgba(255,95,109,100%)",
    ])
    func rgbGivesTheHexChannels(text: String) throws {
        let color = try RGBA(parsing: text)
        let hex = try RGBA(parsing: "#FF5F6D")
        #expect(abs(color.red - hex.red) < 1e-12 && abs(color.green - hex.green) < 1e-12)
        #expect(abs(color.blue - hex.blue) < 1e-12 && color.alpha == 1)
        #expect(color.written == text.trimmingSpaces())
    }

    @Test(arguments: [
        ("rgb(255 95 109 / .5)", 0.5), ("rgba(255, 95, 109, 0.25)", 0.25), ("rgb(255 95 109 / 40%)", 0.4),
        ("hsl(0 100% 50% / 0.5)", 0.5), ("oklch(0.6 0.1 200 / 20%)", 0.2), ("color(srgb 1 0 0 / 2)", 1),
        ("rgb(255 0 0 / -1)", 0),
    ])
    func readsAlpha(text: String, alpha: Double) throws {
        #expect(abs(try RGBA(parsing: text).alpha - alpha) < 1e-12)
    }

    /// Values of rgb() and hsl() outside their ranges are clamped, as CSS clamps them.
    @Test func clampsLikeCSS() throws {
        #expect(try RGBA(parsing: "rgb(300 -20 0)").vector == SIMD4(1, 0, 0, 1))
        #expect(try RGBA(parsing: "hsl(0 150% 50%)").vector == SIMD4(1, 0, 0, 1))
    }

    @Test(arguments: [
        ("hsl(120 100% 50%)", SIMD3<Double>(0, 1, 0)), ("hsl(120deg, 100%, 25%)", SIMD3(0, 0.5, 0)),
        ("hsla(0.5turn 100% 50%)", SIMD3(0, 1, 1)), ("hsl(-120 100% 50%)", SIMD3(0, 0, 1)),
        ("hsl(3.14159265358979rad 100% 50%)", SIMD3(0, 1, 1)), ("hsl(200grad 100% 50%)", SIMD3(0, 1, 1)),
        ("hsl(0 0% 50%)", SIMD3(0.5, 0.5, 0.5)), ("hsl(none 100% 50%)", SIMD3(1, 0, 0)),
    ])
    func readsHSL(text: String, rgb: SIMD3<Double>) throws {
        let color = try RGBA(parsing: text)
        #expect(abs(color.red - rgb.x) < 1e-9 && abs(color.green - rgb.y) < 1e-9 && abs(color.blue - rgb.z) < 1e-9)
    }

    /// sRGB's red, green and blue written in OKLab and OKLCH (their coordinates from CSS
    /// Color 4's own examples, to 6 digits) come back to within 3e-5 of the hex colour.
    @Test(arguments: [
        ("oklab(0.627955 0.224863 0.125846)", SIMD3<Double>(1, 0, 0)),
        ("oklab(62.7955% 56.2158% 31.4615%)", SIMD3(1, 0, 0)),
        ("oklch(0.866440 0.294827 142.4953)", SIMD3(0, 1, 0)),
        ("oklch(45.2014% 0.313214 264.052deg)", SIMD3(0, 0, 1)),
        ("oklch(1 0 none)", SIMD3(1, 1, 1)), ("oklab(0 0 0)", SIMD3(0, 0, 0)),
    ])
    func readsOKLabAndOKLCH(text: String, rgb: SIMD3<Double>) throws {
        let color = try RGBA(parsing: text)
        let error = max(abs(color.red - rgb.x), abs(color.green - rgb.y), abs(color.blue - rgb.z))
        #expect(error < 3e-5, "\(text): \(color.vector)")
    }

    /// Tailwind CSS 4's palette is written in oklch(); pasted as it is, each reads. Those
    /// inside sRGB give the sRGB that colour-science computes for them (to a level);
    /// those outside (orange-500, green-500, blue-500) are gamut mapped into sRGB, keeping
    /// their OKLCH lightness and hue to within the mapping's last clip (deltaEOK < 0.02).
    @Test(arguments: [
        ("oklch(63.7% 0.237 25.331)", "#FB2C36"), ("oklch(55.8% 0.288 302.321)", "#9810FA"),
        ("oklch(0.985 0.002 247.839)", "#F9FAFB"), ("oklch(70.5% 0.213 47.604)", nil),
        ("oklch(72.3% 0.219 149.579)", nil), ("oklch(62.3% 0.214 259.815)", nil),
    ])
    func readsTailwindPaletteStrings(text: String, hex: String?) throws {
        let written = try RGBA(parsing: text)
        let color = written.inColorSpace(.srgb)
        #expect(color.isInsideSRGB)
        guard let hex else {
            #expect(!written.isInsideSRGB)
            func lightness(_ c: RGBA) -> Double {
                ColorMath.okLab(linearSRGB: ColorMath.linear(SIMD3(c.red, c.green, c.blue))).x
            }
            let before = lightness(written), after = lightness(color)
            #expect(abs(before - after) < 0.02, "\(text): lightness \(before) to \(after)")
            return
        }
        let expected = try RGBA(parsing: hex)
        for (a, b) in [(color.red, expected.red), (color.green, expected.green), (color.blue, expected.blue)] {
            #expect(abs(a - b) * 255 <= 1, "\(text): \(color.bytes) against \(hex)")
        }
    }

    /// color() in its three spaces; Display P3's red lies outside sRGB.
    @Test func readsColorFunction() throws {
        #expect(try RGBA(parsing: "color(srgb 1 0.5 0)").vector == SIMD4(1, 0.5, 0, 1))
        #expect(try RGBA(parsing: "color(srgb 100% 50% 0%)").vector == SIMD4(1, 0.5, 0, 1))
        let linear = try RGBA(parsing: "color(srgb-linear 0.214041 0.214041 0.214041)")
        #expect(abs(linear.red - 0.5) < 1e-6)
        let red = try RGBA(parsing: "color(display-p3 1 0 0)")
        // colour-science's matrices from the primaries and D65 (0.3127, 0.3290), encoded with
        // the sign kept.
        #expect(abs(red.red - 1.09306636) < 1e-8 && abs(red.green + 0.22674197) < 1e-8)
        #expect(abs(red.blue + 0.15013458) < 1e-8)
        #expect(!red.isInsideSRGB)
    }

    /// Each problem quotes the part at fault.
    @Test(arguments: [
        ("rgb(255 95)", "rgb() takes 3 values and an optional \"/ alpha\", found 2"),
        ("oklch(63.7% 0.237 abc)", "\"abc\" is not a number, a percentage or an angle"),
        ("oklch(63.7% 0.237 25%)", "\"25%\" is not a hue (a number of degrees or an angle such as 0.5turn)"),
        (
            "lab(50 20 30)",
            "lab() is not a colour function; expected rgb(), rgba(), hsl(), hsla(), oklab(), oklch() or color()"
        ),
        ("rgb(255 95 109", "expected \")\" at the end"),
        (
            "color(rec2020 1 0 0)",
            "\"rec2020\" is not a colour space color() takes here; expected srgb, srgb-linear or display-p3"
        ),
        ("color(1 0 0)", "color() needs a colour space first: srgb, srgb-linear or display-p3"),
        ("oklab(0.5, 0.1, 0.1)", "oklab() takes values separated by spaces, not commas"),
        ("rgb(255, 50%, 0)", "with commas, rgb() takes three numbers or three percentages, not both"),
        ("rgb(1 2 3 / 4 5)", "expected one alpha after \"/\", found 2"),
        ("rgb(1deg 2 3)", "\"1deg\" is not a channel (0 to 255, or a percentage)"),
        ("hsl(10, 50, 50%)", "\"50\" is not a percentage"),
        ("rgb(1e999 0 0)", "\"1e999\" is not a number, a percentage or an angle"),
    ])
    func explainsWhatIsWrong(text: String, problem: String) {
        #expect(throws: ColorParseError(text: text, suggestion: nil, problem: problem)) { try RGBA(parsing: text) }
        let error = ColorParseError(text: text, suggestion: nil, problem: problem)
        #expect(error.description == "\"\(text)\" is not a colour: \(problem)")
    }

    /// A preset file keeps the form written, so `presets show --json` and the studio show it
    /// again, and reads it back into an equal preset; a hex colour stays hex.
    @Test func presetFilesKeepTheFormWritten() throws {
        let json = """
            {"name": "p", "colors": ["oklch(63.7% 0.237 25.331)", "#0A84FF", "rgb(255, 95, 109)"],
             "background": {"type": "linear",
                            "stops": [{"color": "color(display-p3 0 0.2 0.1)"}, {"color": "navy"}]}}
            """
        let preset = try Preset(json: Array(json.utf8), file: "p.json")
        let text = preset.jsonText
        #expect(text.contains("\"oklch(63.7% 0.237 25.331)\""))
        #expect(text.contains("\"rgb(255, 95, 109)\"") && text.contains("\"#0A84FF\""))
        #expect(text.contains("\"color(display-p3 0 0.2 0.1)\"") && text.contains("\"#000080\""))
        #expect(try Preset(json: Array(text.utf8), file: "again") == preset)
    }

    /// Setting a channel forgets the written form, which no longer says the colour.
    @Test func changingAChannelForgetsTheWrittenForm() throws {
        var color = try RGBA(parsing: "oklch(0.7 0.1 200)")
        color.alpha = 0.5
        #expect(color.written == nil)
        #expect(color.text.hasPrefix("#"))
        let wide = RGBA(red: 1.2, green: -0.1, blue: 0.5)
        #expect(wide.text == "color(srgb 1.2 -0.1 0.5)")
        #expect(try RGBA(parsing: wide.text).vector == wide.vector)
    }

    /// Lists split at commas outside parentheses, so legacy rgb() keeps its commas.
    @Test func listsSplitOutsideParentheses() {
        let parts = "red, rgb(1, 2, 3),oklch(0.5 0.1 20)".splitOutsideParentheses(omittingEmpty: false) { $0 == "," }
        #expect(parts.map { String($0).trimmingSpaces() } == ["red", "rgb(1, 2, 3)", "oklch(0.5 0.1 20)"])
        #expect("a,".splitOutsideParentheses(omittingEmpty: false) { $0 == "," } == ["a", ""])
        #expect("".splitOutsideParentheses(omittingEmpty: true) { $0 == "," }.isEmpty)
        #expect(") a".splitOutsideParentheses(omittingEmpty: true, where: \.isWhitespace) == [")", "a"])
    }
}
