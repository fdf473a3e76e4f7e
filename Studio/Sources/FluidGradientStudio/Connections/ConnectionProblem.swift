import Foundation
import HTTPTypes
import NIOCore

/// The responses a connection gets before, or instead of, the HTTP server's: a 503 for one
/// over the cap and a 408 for a request out of time. They are problem documents as every
/// other error is, written as raw HTTP/1.1 bytes, and close the connection.
enum ConnectionProblem {
    /// The bytes of a response with `status`, the problem `detail` and `Connection: close`.
    ///
    /// - Parameters:
    ///   - status: 408 or 503.
    ///   - reason: the status line's reason phrase.
    ///   - detail: the problem's one line.
    ///   - retryAfter: the seconds of a `Retry-After` header, if any.
    /// - Returns: the response, ready to write to the socket.
    static func response(status: Int, reason: String, detail: String, retryAfter: Int? = nil) -> ByteBuffer {
        var problem = Problem(HTTPResponse.Status(code: status), slug(status), title: reason, detail: detail)
        if let retryAfter { problem.headers[.retryAfter] = String(retryAfter) }
        let body = problem.json
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/problem+json\r\n"
        head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
        var buffer = ByteBuffer(string: head + "\r\n")
        buffer.writeBytes(body)
        return buffer
    }

    private static func slug(_ status: Int) -> String {
        status == 503 ? "busy" : "request-timeout"
    }
}
