import FluidGradient
import FluidGradientIO
import Foundation
import Synchronization
import Testing

/// A PNG's work is bounded by its pixels and the bytes up to them: the decode ends with the
/// last row, however much compressed data follows it (a small file can hold gigabytes of
/// zeros past its rows), and a caller can stop it.
@Suite struct PNGBoundedDecodeTests {
    /// The rows of a 5x3 RGB image, each with its filter byte (0, none), as distinct bytes.
    static let rows: [UInt8] = (0..<3).flatMap { (row: Int) -> [UInt8] in
        let pixels: [UInt8] = (0..<15).map { (sample: Int) in UInt8(row * 40 + sample * 2 + 1) }
        return [0] + pixels
    }

    /// A zlib stream (without its end) that holds ``rows`` in a stored block and then
    /// `copies` × 8 × 258 more bytes, each a copy of the one before (fixed-Huffman length
    /// 258, distance 1: 13 bits, so 8 copies fill 13 bytes), which inflate to 2064 bytes a
    /// unit: the ratio of a compression bomb.
    static func stream(copies units: Int) -> [UInt8] {
        let count = UInt16(rows.count)
        var bytes: [UInt8] = [0x78, 0x01, 0x00, UInt8(count & 0xFF), UInt8(count >> 8)]
        bytes += [UInt8(~count & 0xFF), UInt8(~count >> 8)] + rows
        var start = BitWriter()
        start.write(0, count: 1)  // not the final block
        start.write(1, count: 2)  // fixed Huffman codes (BTYPE 01, least significant bit first)
        start.writeCopy()  // 3 + 13 bits: the copies after it start on a byte
        var unit = BitWriter()
        for _ in 0..<8 { unit.writeCopy() }
        return bytes + start.bytes + Array([[UInt8]](repeating: unit.bytes, count: units).joined())
    }

    /// A PNG file of the 5x3 image whose one IDAT chunk holds `data`; no IEND when `ended`
    /// is false.
    static func png(idat data: [UInt8], ended: Bool = true) -> [UInt8] {
        let header = bigEndian(5) + bigEndian(3) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", data)
            + (ended ? chunk("IEND", []) : [])
    }

    /// The pixels the rows hold, as a decoded frame's RGBA bytes (opaque: the image is RGB).
    static var expectedBytes: [UInt8] {
        (0..<15).flatMap { (pixel: Int) -> [UInt8] in
            let start = pixel / 5 * 16 + 1 + pixel % 5 * 3
            return Array(rows[start..<start + 3]) + [255]
        }
    }

    /// The file ends where the compressed stream is still going: the rows are all there, so
    /// it decodes (libpng would read on to finish the stream and fail for want of bytes).
    @Test func decodingEndsWithTheLastRow() throws {
        let file = Self.png(idat: Self.stream(copies: 4096), ended: false)
        let frame = try Frame(pngData: Data(file))
        #expect((frame.width, frame.height, frame.depth, frame.hasTransparency) == (5, 3, .eight, false))
        #expect(frame.bytes == Self.expectedBytes)
    }

    /// 100,000 units of copies (1.3 MB inflating to 1.65 GB) after the rows: the decode
    /// asks for the file's bytes a handful of times, not once for each 8 KiB of the tail.
    @Test func theTailIsNeverRead() throws {
        let reads = Atomic(0)
        let file = Self.png(idat: Self.stream(copies: 100_000))
        let frame = try Frame(pngData: Data(file)) {
            reads.add(1, ordering: .relaxed)
            return false
        }
        #expect(frame.bytes == Self.expectedBytes)
        let asked = reads.load(ordering: .relaxed)
        #expect((1...8).contains(asked), "asked \(asked) times for 1.3 MB of compressed data")
    }

    /// A stop ends the decode with an error that says so.
    @Test func aStopEndsTheDecode() {
        let file = Self.png(idat: Self.stream(copies: 100))
        #expect(throws: PNGError.cannotDecode(path: "PNG data", message: "the decode was stopped")) {
            try Frame(pngData: Data(file), shouldStop: { true })
        }
    }

    /// The ancillary chunks the decode skips leave tRNS alone: a palette image with a zTXt
    /// chunk and a tRNS chunk still comes back with the palette's transparency.
    @Test func transparencyStillApplies() throws {
        let header = bigEndian(2) + bigEndian(1) + [8, 3, 0, 0, 0]
        let rows: [UInt8] = [0, 0, 1]
        let stored: [UInt8] = [0x78, 0x01, 0x01, 3, 0, 0xFC, 0xFF] + rows + bigEndian(adler32(rows))
        let file =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("zTXt", Array("Comment".utf8) + [0, 0, 0x78, 0x01, 0xFF]) + chunk("PLTE", [10, 20, 30, 40, 50, 60])
            + chunk("tRNS", [0, 255]) + chunk("IDAT", stored) + chunk("IEND", [])
        let frame = try Frame(pngData: Data(file))
        #expect(frame.hasTransparency)
        #expect(frame.bytes == [10, 20, 30, 0, 40, 50, 60, 255])
    }
}

/// Bits packed into bytes least significant first, as deflate packs them.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 8

    /// Writes the low `count` bits of `value`, least significant first (deflate's fields).
    mutating func write(_ value: UInt32, count: Int) {
        for bit in 0..<count { append(value >> UInt32(bit) & 1) }
    }

    /// Writes a Huffman code of `length` bits, most significant first (deflate's codes).
    mutating func writeCode(_ code: UInt32, length: Int) {
        for bit in (0..<length).reversed() { append(code >> UInt32(bit) & 1) }
    }

    /// Writes a fixed-Huffman copy of 258 bytes from 1 byte back.
    mutating func writeCopy() {
        writeCode(0b1100_0101, length: 8)  // length code 285: 258 bytes
        writeCode(0, length: 5)  // distance code 0: 1 byte back
    }

    private mutating func append(_ bit: UInt32) {
        if used == 8 {
            bytes.append(0)
            used = 0
        }
        bytes[bytes.count - 1] |= UInt8(bit) << UInt8(used)
        used += 1
    }
}

private func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    bigEndian(UInt32(data.count)) + Array(type.utf8) + data + bigEndian(crc32(Array(type.utf8) + data))
}

private let crcTable: [UInt32] = (0..<256).map { index in
    (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
}

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    ~bytes.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
}

private func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in bytes {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    return b << 16 | a
}
