import CPNGCodec
import Foundation

/// A PNG whose header libpng has read, set up to decode its rows as RGBA at its own
/// depth into memory the caller gives: the handle of the C shim's reader.
final class PNGReader {
    private let reader: OpaquePointer
    private let header: fg_png_header
    private let name: String

    /// Reads the header of the PNG `file` holds, from its current position; `file` must
    /// stay open until the reader is gone.
    ///
    /// - Parameters:
    ///   - file: the open stream.
    ///   - name: how errors name the PNG.
    /// - Throws: ``PNGError/cannotDecode(path:message:)`` for what is not a PNG, a damaged
    ///   or truncated header, or more than 64 Mpixels.
    init(_ file: UnsafeMutablePointer<FILE>, name: String) throws(PNGError) {
        var message = [CChar](repeating: 0, count: Int(FG_PNG_MESSAGE_SIZE))
        var header = fg_png_header()
        guard let reader = fg_png_open_rgba(file, &header, &message) else {
            throw .cannotDecode(path: name, message: cMessage(message))
        }
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

    /// Decodes every row into `bytes`, which holds `height` rows of `width` RGBA pixels.
    ///
    /// - Throws: ``PNGError/cannotDecode(path:message:)`` when the data is damaged or ends early.
    func read(into bytes: UnsafeMutableRawBufferPointer) throws(PNGError) {
        precondition(bytes.count == header.row_bytes * height, "a buffer of another size than the PNG's rows")
        var message = [CChar](repeating: 0, count: Int(FG_PNG_MESSAGE_SIZE))
        guard fg_png_read_rows(reader, bytes.baseAddress, &message) == 0 else {
            throw .cannotDecode(path: name, message: cMessage(message))
        }
    }
}
