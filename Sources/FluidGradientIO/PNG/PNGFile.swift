import CPNGCodec
import FluidGradient
import Foundation
import SystemPackage

/// libpng's encoder settings. The defaults were chosen by measurement on rendered
/// 1080p frames (BENCHMARKS.md): the Sub filter at zlib level 1 was both the fastest
/// setting and the smallest, smaller than ffmpeg's PNG encoder, because dithered smooth
/// gradients are best predicted from the pixel on the left.
package struct PNGOptions: Sendable, Hashable {
    package var compressionLevel: Int32 = 1
    package var filters: Int32 = 0x10  // PNG_FILTER_SUB
    package var strategy: Int32 = 0  // Z_DEFAULT_STRATEGY
    /// The space the samples are in, which the file's colour chunks say: an sRGB chunk, or
    /// for Display P3 a cICP chunk and an iCCP profile (``ICCProfile/displayP3``).
    package var colorSpace: ColorSpace = .srgb

    package init(colorSpace: ColorSpace = .srgb) {
        self.colorSpace = colorSpace
    }
}

/// PNG files through libpng.
package enum PNGFile {
    /// Writes a packed RGB or RGBA buffer, 8- or 16-bit, atomically to `path`. An RGBA
    /// buffer is written as RGB when `alpha` is false (its alpha is then ignored).
    package static func write(
        _ buffer: PixelBuffer, to path: String, options: PNGOptions = PNGOptions(), alpha: Bool? = nil
    ) throws {
        try AtomicFile.write(to: path) { temporaryPath throws in
            try encode(buffer, toPath: temporaryPath, options: options, displayPath: path, alpha: alpha)
        }
    }

    /// Encodes into an existing path (the caller owns atomicity).
    package static func encode(
        _ buffer: PixelBuffer, toPath path: String, options: PNGOptions, displayPath: String, alpha: Bool? = nil
    ) throws(PNGError) {
        let layout = try PNGLayout(buffer, alpha: alpha)
        var message = [CChar](repeating: 0, count: Int(FG_PNG_MESSAGE_SIZE))
        let status = buffer.withUnsafeBytes { bytes in
            options.withCOptions { cOptions in
                fg_png_write_file(
                    path, bytes.baseAddress, UInt32(buffer.width), UInt32(buffer.height), layout.channels,
                    layout.depth, layout.dropAlpha, cOptions, &message)
            }
        }
        guard status == 0 else {
            throw PNGError.cannotWrite(
                path: displayPath, message: cMessage(message), errno: status > 0 ? Errno(rawValue: status) : nil)
        }
    }

    /// The bytes of the PNG that ``write(_:to:options:alpha:)`` would write, encoded in
    /// memory by libpng.
    ///
    /// - Parameters:
    ///   - buffer: a packed RGB or RGBA buffer, 8- or 16-bit.
    ///   - options: the encoder settings.
    ///   - alpha: whether to keep an RGBA buffer's alpha; nil keeps what the format has.
    /// - Returns: the PNG file's bytes.
    /// - Throws: ``PNGError`` for a planar format, or when libpng fails (out of memory).
    package static func data(
        _ buffer: PixelBuffer, options: PNGOptions = PNGOptions(), alpha: Bool? = nil
    ) throws(PNGError) -> [UInt8] {
        let layout = try PNGLayout(buffer, alpha: alpha)
        var message = [CChar](repeating: 0, count: Int(FG_PNG_MESSAGE_SIZE))
        var data = fg_png_data()
        let status = buffer.withUnsafeBytes { bytes in
            options.withCOptions { cOptions in
                fg_png_write_memory(
                    bytes.baseAddress, UInt32(buffer.width), UInt32(buffer.height), layout.channels, layout.depth,
                    layout.dropAlpha, cOptions, &data, &message)
            }
        }
        guard status == 0 else { throw PNGError.cannotEncode(message: cMessage(message)) }
        defer { fg_png_data_free(&data) }
        return Array(UnsafeRawBufferPointer(start: data.bytes, count: data.count))
    }

    /// Decodes a PNG file into a frame at time 0, as ``decode(_:name:)`` decodes bytes.
    ///
    /// A pipe or FIFO is read into memory first, waiting where an interrupt can end the
    /// wait (libpng would wait inside `fread`, where a signal cannot reach it); a file is
    /// decoded as it is read.
    package static func read(_ path: String) throws -> Frame {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw isTooLong(path) ? PNGError.pathTooLong(path: path) : PNGError.missing(path: path)
        }
        guard !isDirectory.boolValue else { throw PNGError.isDirectory(path: path) }
        // Non-blocking, so that opening a FIFO with no writer yet returns at once.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw PNGError.cannotOpen(path: path, errno: .last) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            defer { close(descriptor) }
            let failure = { (errno: Errno) in PNGError.cannotOpen(path: path, errno: errno) }
            guard let bytes = try readToEnd(descriptor, limit: largestPipedPNG, failure: failure) else {
                throw PNGError.tooLarge(path: path, limit: largestPipedPNG)
            }
            return try decode(bytes, name: path)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        guard let file = fdopen(descriptor, "rb") else {
            close(descriptor)
            throw PNGError.cannotOpen(path: path, errno: .last)
        }
        defer { fclose(file) }
        return try decode(file, name: path)
    }

    /// Decodes a whole PNG held in memory into a frame at time 0: RGBA at the PNG's depth
    /// (8 or 16 bits), written by libpng straight into the frame's pixels. Grey and
    /// palette images come back as RGB; the frame ``Frame/hasTransparency`` when the PNG
    /// has an alpha channel or a transparent colour, and is opaque (alpha at its largest
    /// value) otherwise.
    ///
    /// - Parameters:
    ///   - bytes: the PNG file's bytes.
    ///   - name: how errors name the PNG.
    ///   - shouldStop: asked before each read of the compressed data; true stops the decode.
    /// - Returns: the frame.
    /// - Throws: ``PNGError/cannotDecode(path:message:)`` when libpng refuses the bytes
    ///   (not a PNG, truncated, or larger than 64 Mpixels) or `shouldStop` stopped it;
    ///   ``PNGError/cannotOpen(path:errno:)`` when the system cannot read memory as a stream.
    package static func decode(
        _ bytes: some ContiguousBytes, name: String, shouldStop: (@Sendable () -> Bool)? = nil
    ) throws(PNGError) -> Frame {
        // fmemopen takes no empty buffer; an empty input is then one NUL byte, not a PNG either.
        if bytes.withUnsafeBytes({ $0.isEmpty }) { return try decode([UInt8(0)], name: name) }
        let decoded: Result<Frame, PNGError> = bytes.withUnsafeBytes { buffer in
            // Opened for reading only: fmemopen never writes through the pointer.
            guard let file = fmemopen(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count, "rb") else {
                return .failure(.cannotOpen(path: name, errno: .last))
            }
            defer { fclose(file) }
            return Result { () throws(PNGError) in try decode(file, name: name, shouldStop: shouldStop) }
        }
        return try decoded.get()
    }

    /// Decodes the PNG `file` holds, from its current position, through ``PNGReader``.
    private static func decode(
        _ file: UnsafeMutablePointer<FILE>, name: String, shouldStop: (@Sendable () -> Bool)? = nil
    ) throws(PNGError) -> Frame {
        let reader = try PNGReader(file, name: name, shouldStop: shouldStop)
        let pixels = try PixelBuffer(
            width: reader.width, height: reader.height, format: reader.sixteen ? .rgba64le : .rgba
        ) { (bytes) throws(PNGError) in
            try reader.read(into: bytes)
        }
        return Frame(pixels: pixels, time: 0, hasTransparency: reader.hasAlpha, colorSpace: reader.colorSpace ?? .srgb)
    }
}

/// How a packed buffer's samples reach libpng.
private struct PNGLayout {
    /// 3 or 4 samples a pixel as stored.
    let channels: Int32
    /// 8 or 16.
    let depth: Int32
    /// 1 when a fourth sample is written as RGB's filler, else 0.
    let dropAlpha: Int32

    init(_ buffer: PixelBuffer, alpha: Bool?) throws(PNGError) {
        guard let bytesPerPixel = buffer.format.bytesPerPixel else {
            throw PNGError.unsupportedFormat(format: buffer.format.rawValue)
        }
        let depth = buffer.format.bitDepth
        channels = Int32(bytesPerPixel / (depth / 8))
        self.depth = Int32(depth)
        dropAlpha = (alpha ?? buffer.format.hasAlpha) ? 0 : 1
    }
}

extension PNGOptions {
    /// Runs `body` with the settings as the C shim takes them, the profile's bytes alive.
    fileprivate func withCOptions<R>(_ body: (fg_png_write_options) -> R) -> R {
        ICCProfile.displayP3.withUnsafeBufferPointer { profile in
            body(
                fg_png_write_options(
                    compression_level: compressionLevel, filters: filters, strategy: strategy,
                    display_p3: colorSpace == .displayP3 ? 1 : 0, icc_profile: profile.baseAddress,
                    icc_length: UInt32(profile.count)))
        }
    }
}

/// The most ``PNGFile/read(_:)`` reads from a pipe: above the largest image it decodes,
/// 64 Mpixels of 16-bit RGBA (512 MiB), even stored without compression.
let largestPipedPNG = 1 << 30
