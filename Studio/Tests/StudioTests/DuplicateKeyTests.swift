import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

/// Every JSON body of the API refuses an object that holds a key twice, as the preset
/// parser behind `/v1/designs` always did (Foundation's decoder keeps one of the values).
@Suite struct DuplicateKeyTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    @Test func everyJSONRouteRefusesADuplicateKey() async throws {
        let id = String(repeating: "0", count: 64)
        let bodies: [(String, String)] = [
            ("/v1/jobs", #"{"preset": "aurora", "format": "mp4", "format": "gif"}"#),
            ("/v1/jobs", #"{"preset": "aurora", "format": "gif", "fps": 10, "f\u0070s": 20}"#),
            ("/v1/compare", #"{"design": "\#(id)", "target": {"design": "\#(id)", "design": "\#(id)"}}"#),
            ("/v1/compare", #"{"design": "\#(id)", "design": "\#(id)", "target": {"image": "\#(id)"}}"#),
            ("/v1/designs", ##"{"colors": ["#fff", "#000"], "seed": 1, "seed": 2}"##),
        ]
        try await withStudio { client in
            for (uri, body) in bodies {
                try await client.execute(uri: uri, method: .post, headers: Self.json, body: ByteBuffer(string: body)) {
                    let problem = try $0.expectProblem(.badRequest)
                    #expect(
                        (problem["detail"] as? String)?.contains("twice") == true || uri == "/v1/designs", "\(body)")
                }
            }
        }
    }

    /// The same keys in different objects, or in the objects of an array, are not duplicates;
    /// escapes are decoded before keys are compared; a body that is not JSON is left to the
    /// decoder.
    @Test func findsOnlyKeysRepeatedInOneObject() {
        func first(_ text: String) -> String? { JSONDuplicateKeys.first(in: Data(text.utf8)) }
        #expect(first(#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#) == nil)
        #expect(first(#"{"a": 1, "b": {"c": 1, "c": 2}}"#) == "c")
        #expect(first(#"{"a\"b": 1, "a\u0022b": 2}"#) == "a\"b")
        #expect(first(#"{"x": "a", "y": "a", "\u00e9": 1, "é": 2}"#) == "é")
        #expect(first(#"[{"k": 1, "v": "k"}, {"k": 2}]"#) == nil)
        #expect(first(#"{"a": 1, "a"#) == nil)
        #expect(first(String(repeating: "[", count: 100_000)) == nil)
    }
}
