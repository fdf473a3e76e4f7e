import CPNGCodec
import Foundation

/// A PNG whose header libpng has read, set up to decode its rows as RGBA at its own
/// depth into memory the caller gives: the handle of the C shim's reader.
final class PNGReader {
    private let reader: OpaquePointer
    private let header: fg_png_header
    private let name: String
    /// Kept alive for as long as the C reader may ask it.
    private let stop: StopQuestion?

    /// Reads the header of the PNG `file` holds, from its current position; `file` must
    /// stay open until the reader is gone.
    ///
    /// - Parameters:
    ///   - file: the open stream.
    ///   - name: how errors name the PNG.
    ///   - shouldStop: asked before each read of the file; true stops the decode.
    /// - Throws: ``PNGError/cannotDecode(path:message:)`` for what is not a PNG, a damaged
    ///   or truncated header, or more than 64 Mpixels.
    init(_ file: UnsafeMutablePointer<FILE>, name: String, shouldStop: (@Sendable () -> Bool)? = nil)
        throws(PNGError)
    {
        var message = [CChar](repeating: 0, count: Int(FG_PNG_MESSAGE_SIZE))
        var header = fg_png_header()
        let stop = shouldStop.map(StopQuestion.init)
        let context = stop.map { Unmanaged.passUnretained($0).toOpaque() }
        guard let reader = fg_png_open_rgba(file, stop == nil ? nil : StopQuestion.ask, context, &header, &message)
        else {
            throw .cannotDecode(path: name, message: cMessage(message))
        }
        self.stop = stop
        assert(header.channels == 4 && (header.bit_depth == 8 || header.bit_depth == 16), "not RGBA at 8 or 16 bits")
        assert(header.row_bytes == Int(header.width) * Int(header.bit_depth / 2), "rows of another size")
        self.reader = reader
        self.header = header
        self.name = name
    }

    deinit { fg_png_close(reader) }

    var width: Int { Int(header.width) }
    var height: Int { Int(header.height) }
    /// Whether the samples are 16-bit (little-endian), else 8-bit.
    var sixteen: Bool { header.bit_depth == 16 }
    /// Whether the PNG has an alpha channel or a transparent colour; otherwise every alpha
    /// sample is filled in at its largest value.
    var hasAlpha: Bool { header.has_alpha != 0 }

    /// The space the PNG's chunks name: cICP first, then an ICC profile, then sRGB (an
    /// sRGB chunk, or none at all); nil for another space.
    var colorSpace: ColorSpace? {
        switch header.cicp_primaries {
        case 1: return .srgb
        case 12: return .displayP3
        case -1: break
        default: return nil
        }
        if let profile = header.icc_profile, header.has_srgb == 0 {
            return ICCProfile.colorSpace(of: Array(UnsafeBufferPointer(start: profile, count: Int(header.icc_length))))
        }
        return .srgb
    }

    /// Decodes every row into `bytes`, which holds `height` rows of `width` RGBA pixels.
    ///
    /// - Throws: ``PNGError/cannotDecode(path:message:)`` when the data is damaged or ends
    ///   early, or the stop question stopped the decode.
    func read(into bytes: UnsafeMutableRawBufferPointer) throws(PNGError) {
        precondition(bytes.count == header.row_bytes * height, "a buffer of another size than the PNG's rows")
        var message = [CChar](repeating: 0, count: Int(FG_PNG_MESSAGE_SIZE))
        guard fg_png_read_rows(reader, bytes.baseAddress, &message) == 0 else {
            throw .cannotDecode(path: name, message: cMessage(message))
        }
    }
}

/// A decode's stop question, handed to the C decoder as its context.
final class StopQuestion {
    let shouldStop: @Sendable () -> Bool

    init(_ shouldStop: @escaping @Sendable () -> Bool) { self.shouldStop = shouldStop }

    /// The C callback: the question of the ``StopQuestion`` that `context` points to.
    static let ask: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
        guard let context else { return 0 }
        return Unmanaged<StopQuestion>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
    }
}
