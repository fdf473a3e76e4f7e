import Hummingbird

/// What a test sends requests through: the studio, running on a loopback port.
protocol TestClientProtocol: Sendable {
    /// The port the server listens on.
    var port: Int? { get }

    /// Sends one request and waits for the whole response.
    ///
    /// - Parameters:
    ///   - uri: the path and query, such as `/v1/presets`.
    ///   - method: the request's method.
    ///   - headers: fields to send besides Host, Content-Length and Connection.
    ///   - body: the request's body, if any.
    /// - Returns: the response.
    /// - Throws: ``LoopbackError`` when the exchange fails.
    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?)
        async throws -> TestResponse
}

extension TestClientProtocol {
    /// Sends one request and hands the response to `testCallback`.
    ///
    /// - Returns: what `testCallback` returns.
    /// - Throws: what the exchange or `testCallback` throws.
    @discardableResult
    func execute<Return>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        testCallback: @escaping (TestResponse) throws -> Return = { $0 }
    ) async throws -> Return {
        try testCallback(try await executeRequest(uri: uri, method: method, headers: headers, body: body))
    }
}

/// A client that opens a connection per request (`Connection: close`) and reads the answer
/// to the end, on a thread of its own.
struct LoopbackClient: TestClientProtocol {
    let port: Int?

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?)
        async throws -> TestResponse
    {
        guard let port else { throw LoopbackError.malformed("no port: the server is not running") }
        var head = "\(method.rawValue) \(uri) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for field in headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        let payload = body.map { Array(buffer: $0) } ?? []
        if headers[.contentLength] == nil, body != nil || method == .post || method == .put {
            head += "Content-Length: \(payload.count)\r\n"
        }
        let request = Array((head + "\r\n").utf8) + payload
        let bytes = try await onOwnThread {
            let socket = try LoopbackSocket(port: port)
            try socket.send(request)
            return try socket.readToEnd()
        }
        return try TestResponse(parsing: bytes, hasBody: method != .head)
    }
}
