import Foundation
import Testing

/// Text built to be slow to refuse: each is answered (or refused) in time linear in its
/// size, with one error line of a readable length. Sizes are those that took seconds to
/// minutes before; what is checked is the outcome, never the time.
@Suite struct AdversarialTextTests {
    static let colourReason =
        "is not a colour: expected #RGB, #RRGGBB, #RRGGBBAA, a CSS colour name, "
        + "or CSS Color 4's rgb(), hsl(), oklab(), oklch() or color()\n"

    /// One error line, its echoed value shortened in the middle.
    static func expectShortLine(
        _ stderr: String, endingWith ending: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(stderr.hasPrefix("fluidgradient: "), sourceLocation: sourceLocation)
        #expect(stderr.hasSuffix(ending), "\(stderr.suffix(200))", sourceLocation: sourceLocation)
        #expect(stderr.filter { $0 == "\n" }.count == 1, sourceLocation: sourceLocation)
        #expect(stderr.count <= 480, "\(stderr.count) characters", sourceLocation: sourceLocation)
        #expect(stderr.contains(" characters left out)…"), sourceLocation: sourceLocation)
    }

    /// The did-you-mean search compared a 100 KB name with every CSS name, letter by letter.
    @Test func aHugeColourNameIsRefusedInOneShortLine() throws {
        let scratch = Scratch()
        let name = String(repeating: "a", count: 100_000)
        let flag = run(["render", "--size", "32x18", "--colors", name, "-o", scratch.file("o.png")])
        #expect(flag.status == 2)
        Self.expectShortLine(flag.stderr, endingWith: "aaaa\" " + Self.colourReason)
        #expect(flag.stderr.hasPrefix("fluidgradient: --colors: \"aaaa"))
        try Data(#"{ "colors": ["\#(name)"] }"#.utf8).write(to: URL(fileURLWithPath: scratch.file("p.json")))
        let file = run(["render", "--preset", scratch.file("p.json"), "-o", scratch.file("o.png")])
        #expect(file.status == 2)
        Self.expectShortLine(file.stderr, endingWith: "aaaa\" " + Self.colourReason)
        #expect(file.stderr.contains("p.json:1: colors[0]: \"aaaa"))
        #expect(!scratch.contents.contains("o.png"))
    }

    /// A colour function of 60,000 values, or parentheses nested 50,000 deep (an argument
    /// may be at most 128 KiB), is read once and refused in one short line.
    @Test func aHugeColourFunctionIsRefusedInOneShortLine() {
        let scratch = Scratch()
        let many = "rgb(" + Array(repeating: "1", count: 60_000).joined(separator: " ") + ")"
        let flag = run(["render", "--size", "32x18", "--colors", many, "-o", scratch.file("o.png")])
        #expect(flag.status == 2)
        Self.expectShortLine(
            flag.stderr, endingWith: "rgb() takes 3 values and an optional \"/ alpha\", found 60000\n")
        let deep = String(repeating: "(", count: 50_000) + String(repeating: ")", count: 50_000)
        let nested = run(["render", "--size", "32x18", "--colors", "red," + deep, "-o", scratch.file("o.png")])
        #expect(nested.status == 2)
        #expect(nested.stderr.filter { $0 == "\n" }.count == 1 && nested.stderr.count <= 480)
        #expect(!scratch.contents.contains("o.png"))
    }

    /// The duplicate-key check compared each key with every earlier one.
    @Test func fiftyThousandKeysAreCheckedForDuplicatesAtOnce() throws {
        let scratch = Scratch()
        let keys = (0..<50_000).map { "\"k\($0)\": 1" }
        try Data(("{\n" + keys.joined(separator: ",\n") + "\n}\n").utf8)
            .write(to: URL(fileURLWithPath: scratch.file("keys.json")))
        let unknown = run(["render", "--preset", scratch.file("keys.json"), "-o", scratch.file("o.png")])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("keys.json:2: k0: \"k0\" is not a known key"), "\(unknown.stderr.prefix(300))")
        try Data(("{\n" + (keys + ["\"k49999\": 2"]).joined(separator: ",\n") + "\n}\n").utf8)
            .write(to: URL(fileURLWithPath: scratch.file("twice.json")))
        let twice = run(["render", "--preset", scratch.file("twice.json"), "-o", scratch.file("o.png")])
        #expect(twice.status == 2)
        let duplicate = "twice.json:50002: malformed JSON at column 1: duplicate key \"k49999\"\n"
        #expect(twice.stderr.hasSuffix(duplicate), "\(twice.stderr.suffix(300))")
    }

    /// A palette line's note of 200,000 words: each word was tried as a colour, hint and all.
    @Test func aPaletteLineOfManyWordsIsReadOnce() throws {
        let scratch = Scratch()
        let note = Array(repeating: "word", count: 200_000).joined(separator: " ")
        try Data("#FF0000 \(note)\n#0000FF\n".utf8).write(to: URL(fileURLWithPath: scratch.file("notes.txt")))
        let small = ["render", "--size", "32x18", "--palette"]
        let read = run(small + [scratch.file("notes.txt"), "-o", scratch.file("o.png")])
        #expect(read.status == 0, "\(read.stderr.prefix(300))")
        try Data("#FF0000 \(note) teal\n".utf8).write(to: URL(fileURLWithPath: scratch.file("two.txt")))
        let refused = run(small + [scratch.file("two.txt"), "-o", scratch.file("x.png")])
        #expect(refused.status == 2)
        let both = "\"#FF0000\" and \"teal\" are both colours; put one colour on each line"
        #expect(refused.stderr == "fluidgradient: \(scratch.file("two.txt")):1: \(both)\n")
    }
}
