import FluidGradientStudio
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Runs `body` against a studio application through Hummingbird's router test client.
///
/// - Parameters:
///   - configure: changes to the default configuration (a token, tiny limits).
///   - body: the test, given the client.
func withStudio(
    _ configure: (inout StudioConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
) async throws {
    var configuration = StudioConfiguration()
    configure(&configuration)
    let app = Studio.application(configuration: configuration)
    try await app.test(.router) { client in try await body(client) }
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
