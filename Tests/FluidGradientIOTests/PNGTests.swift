import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import SystemPackage
import Testing

@Suite final class PNGTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "fluidgradient-png-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A buffer whose every byte differs from its neighbours, so a swapped byte or
    /// channel cannot hide.
    static func pattern(_ format: PixelFormat, width: Int = 37, height: Int = 11) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, format: format)
        buffer.withUnsafeMutableBytes { bytes in
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 7919 &+ index >> 8) }
        }
        return buffer
    }

    @Test(arguments: [PixelFormat.rgb24, .rgba, .rgb48le, .rgba64le])
    func roundTripsExactly(format: PixelFormat) throws {
        let buffer = Self.pattern(format)
        let path = directory + "/round-trip.png"
        try PNGFile.write(buffer, to: path)
        let image = try PNGFile.read(path)
        #expect(image.width == 37 && image.height == 11)
        #expect(image.storedChannels == (format.hasAlpha ? 4 : 3))
        #expect(image.bitDepth == format.bitDepth)
        var original: [UInt16] = []
        buffer.withUnsafeBytes { bytes in
            if format.bitDepth == 16 {
                original = bytes.bindMemory(to: UInt16.self).map { UInt16(littleEndian: $0) }
            } else {
                original = bytes.map(UInt16.init)
            }
        }
        #expect(image.storedSamples == original)
    }

    /// Seeded noise, which deflate cannot shrink much: its PNG outgrows the memory
    /// writer's first 64 KiB.
    static func noise(_ format: PixelFormat, width: Int, height: Int, seed: UInt64) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, format: format)
        var generator = SplitMix64(seed: seed)
        buffer.withUnsafeMutableBytes { bytes in
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
        }
        return buffer
    }

    /// In every layout, the PNG encoded in memory holds the file's bytes and decodes back.
    @Test(arguments: [PixelFormat.rgb24, .rgba, .rgb48le, .rgba64le], [false, true])
    func encodesInMemoryTheFilesBytes(format: PixelFormat, alpha: Bool) throws {
        let buffer = Self.noise(format, width: 301, height: 203, seed: UInt64(format.bitDepth) << 8 | (alpha ? 1 : 0))
        let data = try PNGFile.data(buffer, alpha: alpha)
        let path = directory + "/file.png", copy = directory + "/memory.png"
        try PNGFile.write(buffer, to: path, alpha: alpha)
        #expect(data.count > 1 << 16)
        #expect(data == [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        try Data(data).write(to: URL(fileURLWithPath: copy))
        let image = try PNGFile.read(copy)
        #expect(image == (try PNGFile.read(path)))
        #expect(image.storedChannels == (alpha && format.hasAlpha ? 4 : 3) && image.bitDepth == format.bitDepth)
        #expect(image.storedSamples.count == 301 * 203 * image.storedChannels)
    }

    @Test func rendersFramesThatRoundTrip() throws {
        let spec = FrameSpec(width: 64, height: 48)
        var buffer = PixelBuffer(width: 64, height: 48, format: .rgb24)
        FrameRenderer(spec: spec).render(
            Scene(base: [Blob(color: .white, center: [0.4, 0.5], radius: [0.3, 0.4])]), into: &buffer)
        try PNGFile.write(buffer, to: directory + "/frame.png")
        #expect(try PNGFile.read(directory + "/frame.png").storedSamples == buffer.bytes.map(UInt16.init))
    }

    @Test func everyEncoderSettingDecodesTheSame() throws {
        let buffer = Self.pattern(.rgba)
        var reference: Frame?
        for (level, filters, strategy) in [(0, 0x08, 0), (2, 0x20, 3), (9, 0xF8, 1), (6, 0x80, 0)]
            as [(Int32, Int32, Int32)]
        {
            var options = PNGOptions()
            options.compressionLevel = level
            options.filters = filters
            options.strategy = strategy
            try PNGFile.write(buffer, to: directory + "/settings.png", options: options)
            let image = try PNGFile.read(directory + "/settings.png")
            if let reference { #expect(image == reference) } else { reference = image }
        }
    }

    @Test func corruptAndTruncatedFilesAreErrorsNamingTheFile() throws {
        try PNGFile.write(Self.pattern(.rgb24, width: 200, height: 100), to: directory + "/good.png")
        let good = try Data(contentsOf: URL(fileURLWithPath: directory + "/good.png"))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: directory + "/truncated.png"))
        var corrupt = good
        corrupt[60] ^= 0xFF
        try corrupt.write(to: URL(fileURLWithPath: directory + "/corrupt.png"))
        try Data("not a png at all".utf8).write(to: URL(fileURLWithPath: directory + "/text.png"))
        for name in ["truncated.png", "corrupt.png", "text.png", "missing.png"] {
            let path = directory + "/" + name
            do {
                _ = try PNGFile.read(path)
                Issue.record("\(name) decoded")
            } catch let error as PNGError {
                #expect(error.description.contains(path))
                #expect(
                    name == "missing.png" ? error == .missing(path: path) : error.description.hasPrefix("cannot read"))
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
        // libpng's own words come with what they mean.
        do {
            _ = try PNGFile.read(directory + "/corrupt.png")
        } catch {
            #expect(
                "\(error)".hasPrefix(
                    "cannot read \(directory)/corrupt.png: the PNG is damaged, "
                        + "or over 65536 pixels a side (libpng: IDAT: "
                ))
        }
    }

    /// A header that claims a huge image is refused before its pixels are allocated.
    @Test func aHugeImageIsRefusedBeforeItIsDecoded() throws {
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            bigEndian(UInt32(data.count)) + Array(type.utf8) + data + bigEndian(crc32(Array(type.utf8) + data))
        }
        let header = bigEndian(40000) + bigEndian(40000) + [8, 2, 0, 0, 0]
        let file =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [0x78, 0x9C])
            + chunk("IEND", [])
        let path = directory + "/huge.png"
        try Data(file).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: PNGError.cannotDecode(
                path: path, message: "it is 40000x40000, over 67 million pixels; scale it down first")
        ) {
            try PNGFile.read(path)
        }
    }

    @Test func writesAtomicallyAndCleansUpOnFailure() throws {
        // A directory in the way: the rename fails, and no temporary file is left.
        try FileManager.default.createDirectory(atPath: directory + "/taken.png", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(
            atPath: directory + "/taken.png/inside", withIntermediateDirectories: false)
        #expect(throws: FileError.self) { try PNGFile.write(Self.pattern(.rgb24), to: directory + "/taken.png") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["taken.png"])
        // A missing directory is an input error that names it.
        do {
            try PNGFile.write(Self.pattern(.rgb24), to: directory + "/no/such/dir/x.png")
            Issue.record("wrote into a missing directory")
        } catch {
            #expect(
                error as? FileError
                    == .missingDirectory(path: directory + "/no/such/dir/x.png", directory: directory + "/no/such/dir"))
            #expect("\(error)".contains("does not exist"))
        }
    }

    /// libpng stops with "Write Error" whatever the cause; the message gives the system's
    /// reason instead, whether the write fails inside libpng (a large frame) or at the
    /// final flush (a small one), and what to do about it.
    @Test(arguments: [(37, 11), (512, 512)])
    func aFailedWriteSaysWhy(size: (width: Int, height: Int)) {
        do {
            try PNGFile.encode(
                Self.pattern(.rgba, width: size.width, height: size.height), toPath: "/dev/full", options: PNGOptions(),
                displayPath: "full.png")
            Issue.record("wrote to /dev/full")
        } catch {
            #expect(
                error as? PNGError
                    == .cannotWrite(path: "full.png", message: "No space left on device", errno: .noSpace))
            #expect(
                "\(error)" == "could not write full.png: No space left on device; free some space, or write elsewhere")
        }
    }

    @Test func aDiscardedFileLeavesNothing() throws {
        let file = try AtomicFile(destination: directory + "/pending.mp4")
        #expect(file.temporaryPath.hasSuffix(".mp4"))
        #expect(FileManager.default.fileExists(atPath: file.temporaryPath))
        file.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        // Dropped without a commit or a discard: freeing it removes the temporary file.
        do { _ = try AtomicFile(destination: directory + "/dropped.png") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
