import Glibc

/// A blocking TCP connection to a port on 127.0.0.1, closed when the value is released.
///
/// The tests' HTTP client sends one request on it and reads the answer to the end; it runs
/// on a thread of its own (``onOwnThread(_:)``), never on the cooperative pool that the
/// server's handlers need.
final class LoopbackSocket: Sendable {
    private let descriptor: Int32

    /// Connects to `port` on 127.0.0.1.
    ///
    /// - Parameters:
    ///   - port: the server's port.
    ///   - timeout: how long a single read may wait before it fails, in seconds.
    /// - Throws: ``LoopbackError`` when the socket cannot be made or connected.
    init(port: Int, timeout: Int = 300) throws {
        precondition((1...65_535).contains(port), "not a port: \(port)")
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackError.system("socket", errno) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(descriptor)
            throw LoopbackError.system("connect", error)
        }
    }

    deinit { close(descriptor) }

    /// Ends the connection from this side, as a client that leaves does; the descriptor is
    /// closed with the value.
    func leave() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Sends `bytes`, or as many as the server takes before it answers and closes.
    ///
    /// A server may refuse a request before its body is in (413, say) and close the
    /// connection; the rest of the body is then not sent, and the answer is still read.
    /// `MSG_NOSIGNAL` keeps that from raising SIGPIPE, which would end the test process.
    ///
    /// - Throws: ``LoopbackError`` when the connection fails otherwise.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EPIPE || errno == ECONNRESET { return }
            guard count > 0 else { throw LoopbackError.system("send", errno) }
            sent += count
        }
    }

    /// Reads until the server closes the connection.
    ///
    /// - Returns: every byte received.
    /// - Throws: ``LoopbackError`` on a failed or timed-out read.
    func readToEnd() throws -> [UInt8] {
        var received: [UInt8] = []
        while true {
            let chunk = try receive(resetEnds: !received.isEmpty)
            if chunk.isEmpty { return received }
            received += chunk
        }
    }

    /// Reads until `marker` has arrived, and leaves the connection open (an event stream).
    ///
    /// - Parameter marker: the text to wait for.
    /// - Returns: the bytes received, `marker` among them.
    /// - Throws: ``LoopbackError`` on a failed or timed-out read, or a close before `marker`.
    func read(until marker: String) throws -> [UInt8] {
        var received: [UInt8] = []
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let chunk = try receive(resetEnds: false)
            guard !chunk.isEmpty else { throw LoopbackError.malformed("closed before \"\(marker)\"") }
            received += chunk
        }
        return received
    }

    /// One read: what arrived, or nothing once the server has closed.
    ///
    /// - Parameter resetEnds: whether a reset counts as a close (after an answer, the server
    ///   closed with the body unread).
    /// - Throws: ``LoopbackError`` on a failed or timed-out read.
    private func receive(resetEnds: Bool) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == ECONNRESET, resetEnds { return [] }
        guard count >= 0 else { throw LoopbackError.system("recv", errno) }
        return Array(buffer[0..<count])
    }
}

/// Why the tests' client could not talk to the server.
enum LoopbackError: Error, CustomStringConvertible {
    /// A system call failed with this errno.
    case system(String, Int32)
    /// The server's answer is not an HTTP/1.1 response.
    case malformed(String)

    var description: String {
        switch self {
        case .system(let call, let error): "\(call): \(String(cString: strerror(error)))"
        case .malformed(let reason): "not an HTTP response: \(reason)"
        }
    }
}
