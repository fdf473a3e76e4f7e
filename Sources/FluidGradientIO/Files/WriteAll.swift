import Foundation

/// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR: 0 when done,
/// otherwise the `errno` of the write that failed.
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if count < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += count
    }
    return 0
}
