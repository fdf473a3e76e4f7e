import Foundation
import Hummingbird

extension Request {
    /// The whole body, refused with 413 once it is over `limit` bytes (by its
    /// `Content-Length` before reading, or while reading).
    ///
    /// - Parameter limit: the largest body allowed, in bytes.
    /// - Returns: the body.
    /// - Throws: the 413 ``Problem``.
    func collectBody(limit: Int) async throws -> ByteBuffer {
        if let length = headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw Problem.bodyTooLarge(limit: limit)
        }
        do {
            return try await body.collect(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Problem.bodyTooLarge(limit: limit)
        }
    }

    /// Refuses a body whose `Content-Type` is present and is not `mediaType` (parameters
    /// such as `charset` aside) with 415.
    ///
    /// - Parameter mediaType: the type the route reads, such as `application/json`.
    /// - Throws: the 415 ``Problem``.
    func requireContentType(_ mediaType: String) throws {
        guard let header = headers[.contentType] else { return }
        let type = header.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
        guard type?.lowercased() == mediaType else {
            throw Problem(
                .unsupportedMediaType, "unsupported-media-type", title: "The body has the wrong type",
                detail: "The body must be \(mediaType), not \(header).")
        }
    }
}

extension Response {
    /// A 200 (or `status`) response with the JSON document `text`.
    ///
    /// - Parameters:
    ///   - text: a JSON document.
    ///   - status: the status.
    /// - Returns: the response, `application/json`, not to be stored by caches.
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
