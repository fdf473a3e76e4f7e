import FluidGradient
import Testing

@Suite struct JSONParserTests {
    @Test func parsesValuesInOrder() throws {
        let node = try JSONParser.parse(#"{"b": [1, -2.5e1, true, null], "a": "x\u00e9\n\ud83d\ude00"}"#)
        guard case .object(let members) = node.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(
            members[0].value.value
                == .array([JSONNode(.number(1)), JSONNode(.number(-25)), JSONNode(.bool(true)), JSONNode(.null)]))
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
