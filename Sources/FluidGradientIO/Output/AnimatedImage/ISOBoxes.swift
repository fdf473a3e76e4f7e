/// A box of an ISO base media file (MP4, AVIF): its four-letter type and where it lies.
package struct ISOBox: Equatable, Sendable {
    package let type: String
    /// Where the box starts, its size header included.
    package let offset: Int
    package let size: Int
    /// 8, or 16 for a box whose size is a 64-bit field.
    package let headerSize: Int

    package var contentStart: Int { offset + headerSize }
    package var end: Int { offset + size }
}

/// Reads and edits the boxes of an ISO base media file held in memory.
package enum ISOBoxes {
    /// The boxes that lie one after another in `range` of `bytes`; nil when one of them
    /// runs past the range or declares a size under its header.
    package static func children(of bytes: [UInt8], in range: Range<Int>) -> [ISOBox]? {
        var boxes: [ISOBox] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard offset + 8 <= range.upperBound else { return nil }
            var size = readInteger(bytes, at: offset, width: 4)
            var headerSize = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { return nil }
                size = readInteger(bytes, at: offset + 8, width: 8)
                headerSize = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= headerSize, size <= range.upperBound - offset else { return nil }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            boxes.append(ISOBox(type: type, offset: offset, size: size, headerSize: headerSize))
            offset += size
        }
        return boxes
    }

    /// The children of `box`, or nil (see ``children(of:in:)``). `skip` is how many bytes of
    /// its content come before them: 4 for a full box's version and flags.
    package static func children(of bytes: [UInt8], inside box: ISOBox, skip: Int = 0) -> [ISOBox]? {
        guard box.contentStart + skip <= box.end else { return nil }
        return children(of: bytes, in: (box.contentStart + skip)..<box.end)
    }

    /// The top-level boxes of a whole file.
    package static func topLevel(_ bytes: [UInt8]) -> [ISOBox]? {
        children(of: bytes, in: 0..<bytes.count)
    }

    /// The big-endian unsigned integer of `width` bytes (at most 8) at `offset`.
    package static func readInteger(_ bytes: [UInt8], at offset: Int, width: Int) -> Int {
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return Int(truncatingIfNeeded: value)
    }

    /// Writes `value` big-endian into `width` bytes at `offset`.
    package static func writeInteger(_ value: Int, into bytes: inout [UInt8], at offset: Int, width: Int) {
        let bits = UInt64(truncatingIfNeeded: value)
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: bits >> (8 * (width - 1 - index))) }
    }

    /// `value` big-endian in `width` bytes.
    package static func encode(_ value: Int, width: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width)
        writeInteger(value, into: &bytes, at: 0, width: width)
        return bytes
    }
}
