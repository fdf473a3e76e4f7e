import Foundation
import Hummingbird
import NIOHTTP1

extension Request {
    /// The whole body, read as it arrives and held against `hold`: refused with 413 once
    /// it is over `limit` bytes (by its `Content-Length` before reading, or while reading a
    /// chunked one), with 503 when the budget behind `hold` has no room, and with 400 when
    /// it is not valid HTTP (a malformed chunk) or ends before it is complete.
    ///
    /// - Parameters:
    ///   - limit: the largest body allowed, in bytes.
    ///   - hold: the budget the bytes are held against.
    /// - Returns: the body.
    /// - Throws: the 413, 503 or 400 ``Problem``.
    func collectBody(limit: Int, hold: BudgetHold) async throws -> ByteBuffer {
        let declared = headers[.contentLength].map { Int($0) }
        if let declared {
            guard let declared, declared >= 0 else { throw Problem.badRequest("The Content-Length is not a number.") }
            guard declared <= limit else { throw Problem.bodyTooLarge(limit: limit) }
            try hold.grow(to: declared)
        }
        var collected = ByteBuffer()
        collected.reserveCapacity(declared.flatMap { $0 } ?? 0)
        do {
            for try await var part in body {
                let total = collected.readableBytes + part.readableBytes
                guard total <= limit else { throw Problem.bodyTooLarge(limit: limit) }
                try hold.grow(to: total)
                collected.writeBuffer(&part)
            }
        } catch let problem as Problem {
            throw problem
        } catch let error as HTTPParserError {
            throw Problem.malformedBody(error)
        } catch {
            throw Problem.bodyCutShort(received: collected.readableBytes)
        }
        if let declared = declared.flatMap({ $0 }), collected.readableBytes != declared {
            throw Problem.bodyCutShort(received: collected.readableBytes)
        }
        return collected
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
