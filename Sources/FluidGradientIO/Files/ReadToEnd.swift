import Foundation
import SystemPackage

/// Reads `descriptor` to its end, waiting in ``Interruption/wait(for:events:)`` so that
/// neither a FIFO's missing writer nor a pipe's silent one holds off a stop.
///
/// - Parameters:
///   - descriptor: an open descriptor; non-blocking, or one that `poll` says is readable
///     only when a read would not block (a pipe, a FIFO, a file).
///   - limit: the most bytes to read.
///   - failure: the error for a failed read, given the system's reason.
/// - Returns: the bytes, or nil once there are more than `limit`.
/// - Throws: ``InterruptionError`` on a stop, or `failure`'s error.
func readToEnd(
    _ descriptor: Int32, limit: Int, failure: (_ errno: Errno) -> any Error
) throws -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        // A FIFO whose writer has not come yet reads as ended, but does not poll as ready;
        // a file always polls as ready.
        try Interruption.wait(for: descriptor, events: Int16(POLLIN))
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return bytes }
        if count < 0 {
            guard errno == EAGAIN || errno == EINTR else { throw failure(.last) }
            continue
        }
        bytes += chunk[..<count]
        if bytes.count > limit { return nil }
    }
}
