import Foundation
import HTTPTypes
import Hummingbird

/// A response as the server sent it over the wire: the head, the whole body (chunks joined),
/// and the trailers of a chunked body.
struct TestResponse: Sendable {
    /// The status line and the header fields.
    let head: HTTPResponse
    /// The body, after the transfer coding is undone.
    let body: ByteBuffer
    /// The trailer fields of a chunked body, nil when there were none.
    let trailerHeaders: HTTPFields?

    /// The response's status.
    var status: HTTPResponse.Status { head.status }
    /// The response's header fields.
    var headers: HTTPFields { head.headerFields }

    /// Parses the bytes of one HTTP/1.1 response, read to the end of the connection.
    ///
    /// - Parameters:
    ///   - bytes: the response as received.
    ///   - hasBody: false for the answer to HEAD, whose Content-Length describes no bytes.
    /// - Throws: ``LoopbackError/malformed(_:)`` when `bytes` are not such a response.
    init(parsing bytes: [UInt8], hasBody: Bool) throws {
        var reader = ResponseReader(bytes: bytes)
        let statusLine = try reader.line()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw LoopbackError.malformed("status line \(statusLine.debugDescription)")
        }
        let fields = try reader.fields()
        head = HTTPResponse(
            status: .init(code: code, reasonPhrase: parts.count > 2 ? String(parts[2]) : ""), headerFields: fields)
        guard hasBody else {
            (body, trailerHeaders) = (ByteBuffer(), nil)
            return
        }
        if fields[.transferEncoding]?.lowercased() == "chunked" {
            let chunks = try reader.chunks()
            body = ByteBuffer(bytes: chunks)
            let trailers = try reader.fields()
            trailerHeaders = trailers.isEmpty ? nil : trailers
        } else {
            let length = fields[.contentLength].flatMap { Int($0) } ?? reader.remaining
            body = ByteBuffer(bytes: try reader.take(length))
            trailerHeaders = nil
        }
    }
}

/// Reads a response's lines, fields and chunks, in order, from its bytes.
private struct ResponseReader {
    let bytes: [UInt8]
    var offset = 0

    var remaining: Int { bytes.count - offset }

    /// The next line, without its CRLF.
    mutating func line() throws -> String {
        var end = offset
        while end + 1 < bytes.count, !(bytes[end] == 13 && bytes[end + 1] == 10) { end += 1 }
        guard end + 1 < bytes.count else { throw LoopbackError.malformed("a line with no CRLF") }
        defer { offset = end + 2 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// Header (or trailer) fields up to the empty line.
    mutating func fields() throws -> HTTPFields {
        var fields = HTTPFields()
        while true {
            let line = try line()
            if line.isEmpty { return fields }
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                throw LoopbackError.malformed("field \(line.debugDescription)")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields.append(HTTPField(name: name, value: value))
        }
    }

    /// `count` bytes.
    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw LoopbackError.malformed("a body cut short") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// The data of a chunked body, up to and including its last (empty) chunk.
    mutating func chunks() throws -> [UInt8] {
        var data: [UInt8] = []
        while true {
            let sizeText = try line().split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16) else { throw LoopbackError.malformed("chunk size \(sizeText)") }
            if size == 0 { return data }
            data += try take(size)
            guard try line().isEmpty else { throw LoopbackError.malformed("a chunk without its CRLF") }
        }
    }
}
