import FluidGradientIO
import Foundation
import Hummingbird
import NIOHTTP1

/// An error answered as `application/problem+json` (RFC 9457): every error the service
/// gives is one of these, rendered in one place (``response(from:context:)``).
package struct Problem: Error, Sendable, HTTPResponseError {
    /// The HTTP status.
    package var status: HTTPResponse.Status
    /// The last component of the `type` URI, such as `invalid-preset`.
    package var slug: String
    /// A short summary that is the same for every problem of this type.
    package var title: String
    /// One line about this occurrence.
    package var detail: String
    /// Members beyond the standard ones, such as `keyPath`; strings or integers.
    package var extensions: [String: ExtensionValue] = [:]
    /// Headers the response carries as well, such as `Retry-After` or `Allow`.
    package var headers: HTTPFields = [:]

    /// A value of an extension member.
    package enum ExtensionValue: Sendable, Equatable {
        case string(String)
        case int(Int)
    }

    /// The prefix of every problem `type`.
    package static let typePrefix = "https://fluidgradient.invalid/problems/"

    /// A problem.
    ///
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - slug: the last component of the `type` URI.
    ///   - title: the summary of the problem type.
    ///   - detail: one line about this occurrence.
    package init(_ status: HTTPResponse.Status, _ slug: String, title: String, detail: String) {
        self.status = status
        self.slug = slug
        self.title = title
        self.detail = detail
    }

    /// The JSON document: `type`, `title`, `status`, `detail` and the extensions.
    package var json: Data {
        var object: [String: Any] = [
            "type": Problem.typePrefix + slug, "title": title, "status": status.code, "detail": detail,
        ]
        for (key, value) in extensions {
            switch value {
            case .string(let text): object[key] = text
            case .int(let number): object[key] = number
            }
        }
        // Strings and integers always serialize.
        return try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The response: the status, the JSON body and the extra headers.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(data: json)))
    }
}

extension Problem {
    /// The directories whose paths a problem must not show: the temporary directory (job
    /// and encoder files), the working directory and the home directory.
    static let serverDirectories: [String] = {
        let environment = ProcessInfo.processInfo.environment
        let candidates: [String?] = [
            NSTemporaryDirectory(), FileManager.default.temporaryDirectory.path, "/tmp", "/var/tmp",
            FileManager.default.currentDirectoryPath, environment["TMPDIR"], environment["HOME"],
        ]
        let directories = candidates.compactMap { $0 }.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        return Array(Set(directories.filter { $0.count > 1 })).sorted { $0.count > $1.count }
    }()

    /// The problem with every path under ``serverDirectories`` in its detail and string
    /// members cut to its file name: a library error quotes the file it failed on, which for
    /// the service is a temporary file of its own (`/tmp/fluidgradient-x/still.webp: a WebP
    /// is at most…` becomes `still.webp: a WebP is at most…`).
    package var withoutServerPaths: Problem {
        var problem = self
        problem.detail = Self.removingServerPaths(detail)
        for (key, value) in extensions {
            if case .string(let text) = value { problem.extensions[key] = .string(Self.removingServerPaths(text)) }
        }
        return problem
    }

    /// `text` with each path under a ``serverDirectories`` entry (up to the next space,
    /// quote, comma, colon or parenthesis) cut to its last component.
    package static func removingServerPaths(_ text: String) -> String {
        var result = text
        for directory in serverDirectories where result.contains(directory + "/") {
            var output = ""
            var rest = Substring(result)
            while let range = rest.range(of: directory + "/") {
                let path = rest[range.upperBound...].prefix { !" \"',;:()\n".contains($0) }
                output += rest[..<range.lowerBound] + (path.split(separator: "/").last ?? "")
                rest = rest[path.endIndex...]
            }
            result = output + rest
        }
        return result
    }

    /// 400: the request is malformed (a size, a time, a parameter, a body that is not JSON).
    static func badRequest(_ detail: String) -> Problem {
        Problem(.badRequest, "bad-request", title: "The request is malformed", detail: detail)
    }

    /// 404: nothing is at this address.
    static func notFound(_ detail: String) -> Problem {
        Problem(.notFound, "not-found", title: "Not found", detail: detail)
    }

    /// 422: the request is well formed but over a limit or out of a range.
    static func unprocessable(_ detail: String) -> Problem {
        Problem(.unprocessableContent, "limit-exceeded", title: "A value is over a limit", detail: detail)
    }

    /// 413: the body is larger than `limit` bytes (nil when the limit is not known here).
    package static func bodyTooLarge(limit: Int?) -> Problem {
        var problem = Problem(
            .contentTooLarge, "body-too-large", title: "The request body is too large",
            detail: limit.map { "The body may be at most \($0) bytes." } ?? "The body is over the limit.")
        if let limit { problem.extensions["limit"] = .int(limit) }
        problem.headers[.connection] = "close"
        return problem
    }

    /// 400 for a body that is not valid HTTP (a malformed chunk); the connection closes.
    package static func malformedBody(_ error: HTTPParserError) -> Problem {
        var problem = Problem(
            .badRequest, "malformed-body", title: "The request body is malformed",
            detail: "The body is not valid HTTP/1.1 (\(error)); send a Content-Length or well-formed chunks.")
        problem.headers[.connection] = "close"
        return problem
    }

    /// 400 for a body that ended before it was complete (the client closed the connection
    /// or stopped sending); the connection closes.
    package static func bodyCutShort(received: Int?) -> Problem {
        var problem = Problem(
            .badRequest, "body-incomplete", title: "The request body is incomplete",
            detail: "The body ended" + (received.map { " after \($0) bytes" } ?? "") + ", before it was complete.")
        problem.headers[.connection] = "close"
        return problem
    }

    /// 503 with `Retry-After`: the service is at its limit for now.
    static func busy(_ detail: String, retryAfter seconds: Int) -> Problem {
        var problem = Problem(.serviceUnavailable, "busy", title: "The service is busy", detail: detail)
        problem.headers[.retryAfter] = String(seconds)
        return problem
    }

    /// 400 for a preset the library refuses, with the file, line, key path and reason of
    /// its ``PresetError``.
    static func invalidPreset(_ error: PresetError) -> Problem {
        var problem = Problem(
            .badRequest, "invalid-preset", title: "The preset is not valid", detail: error.description)
        problem.extensions["file"] = .string(error.file)
        if let line = error.line { problem.extensions["line"] = .int(line) }
        problem.extensions["keyPath"] = .string(error.keyPath)
        problem.extensions["reason"] = .string(error.reason.description)
        return problem
    }
}
