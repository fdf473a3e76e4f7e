import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

/// Runs `body` against a studio application through Hummingbird's router test client,
/// checking every response against `openapi.json`.
///
/// - Parameters:
///   - configuration: the service's configuration (`.changed { … }` for a token, tiny limits).
///   - body: the test, given the client.
func withStudio(
    _ configuration: StudioConfiguration = StudioConfiguration(),
    _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
) async throws {
    try await withStudio(Studio(configuration: configuration), body)
}

extension StudioConfiguration {
    /// The default configuration with `change` made to it.
    static func changed(_ change: (inout StudioConfiguration) -> Void) -> StudioConfiguration {
        var configuration = StudioConfiguration()
        change(&configuration)
        return configuration
    }
}

/// Runs `body` against the application of `studio`, for tests that reach into its state.
func withStudio(_ studio: Studio, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void)
    async throws
{
    try await studio.application().test(.live) { client in try await body(DocumentCheckingClient(client: client)) }
}

/// The project's seeded generator (SplitMix64, as the library's, which is not public), so
/// randomized cases are the same on every run.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`.
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

extension TestResponse {
    /// The body's bytes.
    var bytes: [UInt8] { Array(buffer: body) }

    /// The body parsed as a JSON object; a failed expectation when it is not one.
    func jsonObject(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }

    /// Checks that the response is a problem document of `status` and returns its members.
    @discardableResult
    func expectProblem(
        _ status: HTTPResponse.Status, slug: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any] {
        #expect(self.status == status, sourceLocation: sourceLocation)
        #expect(headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
        let problem = try jsonObject(sourceLocation: sourceLocation)
        #expect(problem["status"] as? Int == Int(status.code), sourceLocation: sourceLocation)
        #expect(problem["title"] is String, sourceLocation: sourceLocation)
        #expect((problem["detail"] as? String)?.contains("\n") == false, sourceLocation: sourceLocation)
        let type = try #require(problem["type"] as? String, sourceLocation: sourceLocation)
        #expect(type.hasPrefix(Problem.typePrefix), sourceLocation: sourceLocation)
        if let slug { #expect(type == Problem.typePrefix + slug, sourceLocation: sourceLocation) }
        return problem
    }
}

extension ByteBuffer {
    /// A buffer holding `data`.
    init(_ data: Data) { self.init(bytes: Array(data)) }
}
