import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// Every layout a PNG can have decodes straight into a frame's RGBA: grey, grey with
/// alpha, RGB, RGBA and palette images at each bit depth they allow, with and without a
/// transparent colour (tRNS). The PNGs are written here by hand, from seeded samples, with
/// the PNG specification's rules for what each decodes to, independently of libpng.
@Suite struct PNGLayoutTests {
    struct Layout: CustomTestStringConvertible, Sendable {
        var colorType: UInt8
        var bitDepth: Int
        var transparent = false
        var testDescription: String { "colour type \(colorType), \(bitDepth) bits\(transparent ? ", tRNS" : "")" }
    }

    static let layouts: [Layout] =
        [1, 2, 4, 8, 16].flatMap {
            [Layout(colorType: 0, bitDepth: $0), Layout(colorType: 0, bitDepth: $0, transparent: true)]
        }
        + [8, 16].flatMap {
            [
                Layout(colorType: 2, bitDepth: $0), Layout(colorType: 2, bitDepth: $0, transparent: true),
                Layout(colorType: 4, bitDepth: $0), Layout(colorType: 6, bitDepth: $0),
            ]
        }
        + [1, 2, 4, 8].flatMap {
            [Layout(colorType: 3, bitDepth: $0), Layout(colorType: 3, bitDepth: $0, transparent: true)]
        }

    @Test(arguments: layouts)
    func decodesToTheSpecificationsRGBA(layout: Layout) throws {
        var generator = SplitMix64(
            seed: UInt64(layout.colorType) << 8 | UInt64(layout.bitDepth) << 1 | (layout.transparent ? 1 : 0))
        let image = HandMadePNG(layout: layout, width: 13, height: 7, generator: &generator)
        let frame = try Frame(pngData: Data(image.file))
        #expect(frame.width == 13 && frame.height == 7)
        #expect(frame.depth == (layout.bitDepth == 16 ? .sixteen : .eight))
        #expect(frame.hasTransparency == (layout.colorType == 4 || layout.colorType == 6 || layout.transparent))
        #expect(frame.bytes == image.expectedRGBA, "\(layout.testDescription)")
        if layout.transparent {
            // The first pixel takes the transparent colour or palette entry.
            let alpha = layout.bitDepth == 16 ? Array(frame.bytes[6...7]) : [frame.bytes[3]]
            #expect(alpha.allSatisfy { $0 == 0 }, "\(layout.testDescription)")
        }
    }
}

/// A PNG written sample by sample: one IDAT of stored (uncompressed) deflate blocks,
/// filter type 0 on every row, and the RGBA it decodes to by the specification.
private struct HandMadePNG {
    let file: [UInt8]
    let expectedRGBA: [UInt8]

    init(layout: PNGLayoutTests.Layout, width: Int, height: Int, generator: inout SplitMix64) {
        let depth = layout.bitDepth, top = (1 << depth) - 1
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(layout.colorType)]!
        let paletteSize = layout.colorType == 3 ? 1 << depth : 0
        let palette = (0..<(3 * paletteSize)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        // Fewer alphas than entries, as tRNS allows; entry 0, the first pixel's, is transparent.
        let paletteAlpha = [0] + (0..<(paletteSize / 2)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var samples = (0..<(width * height * channels)).map { _ in Int(generator.next() % UInt64(top + 1)) }
        // The transparent colour of grey or RGB: the first pixel's, so that it shows.
        let key = Array(samples[0..<channels])
        var chunks = Self.chunk(
            "IHDR", Self.bigEndian(width, 4) + Self.bigEndian(height, 4) + [UInt8(depth), layout.colorType, 0, 0, 0])
        if layout.colorType == 3 { chunks += Self.chunk("PLTE", palette) }
        if layout.transparent {
            let trns = layout.colorType == 3 ? paletteAlpha : key.flatMap { Self.bigEndian($0, 2) }
            chunks += Self.chunk("tRNS", trns)
        }
        if layout.colorType == 3 {
            samples = samples.map { $0 % paletteSize }
            samples[0] = 0
        }
        chunks += Self.chunk(
            "IDAT", Self.zlibStored(Self.rows(samples, width: width * channels, depth: depth, height: height)))
        file = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunks + Self.chunk("IEND", [])

        // What it decodes to: RGBA at 8 bits (16 for 16-bit PNGs), little-endian.
        var expected: [UInt8] = []
        for pixel in 0..<(width * height) {
            let values = Array(samples[(pixel * channels)..<((pixel + 1) * channels)])
            var rgba: [Int]
            switch layout.colorType {
            case 0: rgba = [values[0], values[0], values[0], top]
            case 2: rgba = values + [top]
            case 3:
                let index = values[0]
                rgba = (0..<3).map { Int(palette[3 * index + $0]) }
                rgba.append(layout.transparent && index < paletteAlpha.count ? Int(paletteAlpha[index]) : 255)
            case 4: rgba = [values[0], values[0], values[0], values[1]]
            default: rgba = values
            }
            if layout.transparent, layout.colorType == 0 || layout.colorType == 2, values == key { rgba[3] = 0 }
            // Grey below 8 bits scales to 8 by repeating its bits: v·255/(2ᵈ − 1).
            if layout.colorType != 3, depth < 8 { rgba = rgba.map { $0 * 255 / top } }
            expected += rgba.flatMap { depth == 16 ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0)] }
        }
        expectedRGBA = expected
    }

    /// Each row behind a filter byte of 0, its samples packed most significant bits first.
    static func rows(_ samples: [Int], width: Int, depth: Int, height: Int) -> [UInt8] {
        (0..<height).flatMap { row -> [UInt8] in
            let line = samples[(row * width)..<((row + 1) * width)]
            if depth == 16 { return [0] + line.flatMap { bigEndian($0, 2) } }
            var bytes = [UInt8](repeating: 0, count: (width * depth + 7) / 8)
            for (index, sample) in line.enumerated() {
                let bit = index * depth
                bytes[bit / 8] |= UInt8(sample << (8 - depth - bit % 8))
            }
            return [0] + bytes
        }
    }

    /// A zlib stream of stored deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01], start = 0
        repeat {
            let end = min(start + 65535, data.count), count = end - start
            out += [end == data.count ? 1 : 0, UInt8(count & 0xFF), UInt8(count >> 8)]
            out += [UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)] + data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(Int(b << 16 | a), 4)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return bigEndian(data.count, 4) + body + bigEndian(Int(~crc), 4)
    }

    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - $0))) }
    }
}
