import Foundation
import HTTPTypes
import Hummingbird
import Testing

/// `Studio/openapi.json`, read with Foundation, and the checks the tests make against it.
struct OpenAPIDocument: @unchecked Sendable {
    /// The document as JSONSerialization reads it.
    let root: [String: Any]

    /// The repository's document.
    static let studio: OpenAPIDocument = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.json")
        // A missing or malformed document fails every test that reads it, which is the point.
        let data = try! Data(contentsOf: url)
        return OpenAPIDocument(root: try! JSONSerialization.jsonObject(with: data) as! [String: Any])
    }()

    var paths: [String: [String: Any]] { root["paths"] as? [String: [String: Any]] ?? [:] }

    /// The path template `path` (no query) falls under: the one whose segments match, with
    /// the most literal segments, as the router prefers them.
    func template(for path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let matching = paths.keys.filter { template in
            let parts = template.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            return parts.count == segments.count
                && zip(parts, segments).allSatisfy { part, segment in
                    part.hasPrefix("{") ? !segment.isEmpty : part == segment || (part.isEmpty && segment.isEmpty)
                }
        }
        return matching.max { literals($0) < literals($1) }
    }

    private func literals(_ template: String) -> Int {
        template.split(separator: "/").filter { !$0.hasPrefix("{") }.count
    }

    /// The problems with `response` to `method` `uri` according to the document: an
    /// undeclared status or content type, or a JSON body without a required member.
    func issues(method: HTTPRequest.Method, uri: String, response: TestResponse) -> [String] {
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        let status = String(response.status.code)
        guard let template = template(for: path), let item = paths[template] else {
            // With a token set, the token is asked for before the path is looked up.
            let allowed: [HTTPResponse.Status] = [.notFound, .unauthorized]
            return allowed.contains(response.status)
                ? [] : ["\(method) \(path): no path of the document, yet \(status)"]
        }
        let name = method == .head ? "get" : method.rawValue.lowercased()
        guard let operation = item[name] as? [String: Any] else {
            return response.status == .methodNotAllowed ? [] : ["\(method) \(template): no operation, yet \(status)"]
        }
        let responses = operation["responses"] as? [String: Any] ?? [:]
        guard let declared = responses[status].flatMap(resolve) else {
            return ["\(method) \(template): status \(status) is not declared"]
        }
        guard response.body.readableBytes > 0, method != .head else { return [] }
        let type = response.headers[.contentType] ?? ""
        let content = declared["content"] as? [String: Any] ?? [:]
        let bare = { (text: String) in text.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard let media = content.first(where: { bare($0.key) == bare(type) })?.value as? [String: Any] else {
            return ["\(method) \(template): \(status) with \(type) is not declared"]
        }
        return missingMembers(response, schema: media["schema"]).map { "\(method) \(template): \(status) lacks \($0)" }
    }

    /// The members a JSON body lacks of those its schema (or the schemas it is all of)
    /// requires.
    private func missingMembers(_ response: TestResponse, schema: Any?) -> [String] {
        guard let schema = schema.flatMap(resolve),
            let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        else { return [] }
        let parts = [schema] + ((schema["allOf"] as? [Any])?.compactMap(resolve) ?? [])
        let required = parts.flatMap { $0["required"] as? [String] ?? [] }
        return required.filter { object[$0] == nil }
    }

    /// `value`, or the component its `$ref` names.
    func resolve(_ value: Any) -> [String: Any]? {
        guard let object = value as? [String: Any] else { return nil }
        guard let reference = object["$ref"] as? String else { return object }
        var node: Any = root
        for key in reference.dropFirst(2).split(separator: "/") {
            guard let next = (node as? [String: Any])?[String(key)] else { return nil }
            node = next
        }
        return resolve(node)
    }
}

/// A test client that checks every response it gets against the OpenAPI document.
struct DocumentCheckingClient: TestClientProtocol {
    let client: any TestClientProtocol

    var port: Int? { client.port }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?)
        async throws -> TestResponse
    {
        let response = try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
        for issue in OpenAPIDocument.studio.issues(method: method, uri: uri, response: response) {
            Issue.record("openapi.json: \(issue)")
        }
        return response
    }
}
