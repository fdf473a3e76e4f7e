import CPNGCodec
import FluidGradient

extension PNGFile {
    /// The bytes of an 8-bit PNG of raw samples: grey (1 a pixel), RGB (3) or RGBA (4),
    /// row after row, tagged sRGB.
    ///
    /// - Parameters:
    ///   - samples: `width × height × channels` samples.
    ///   - width: the image's width in pixels.
    ///   - height: its height in pixels.
    ///   - channels: 1, 3 or 4.
    ///   - options: the encoder settings.
    /// - Returns: the PNG file's bytes.
    /// - Throws: ``PNGError`` when libpng fails (out of memory).
    package static func data(
        samples: [UInt8], width: Int, height: Int, channels: Int, options: PNGOptions
    ) throws(PNGError) -> [UInt8] {
        precondition(samples.count == width * height * channels, "samples for another size")
        var message = [CChar](repeating: 0, count: Int(FG_PNG_MESSAGE_SIZE))
        var data = fg_png_data()
        let settings = fg_png_write_options(
            compression_level: options.compressionLevel, filters: options.filters, strategy: options.strategy,
            display_p3: 0, icc_profile: nil, icc_length: 0)
        let status = samples.withUnsafeBytes { bytes in
            fg_png_write_memory(
                bytes.baseAddress, UInt32(width), UInt32(height), Int32(channels), 8, 0, settings, &data, &message)
        }
        guard status == 0 else { throw PNGError.cannotEncode(message: cMessage(message)) }
        defer { fg_png_data_free(&data) }
        return Array(UnsafeRawBufferPointer(start: data.bytes, count: data.count))
    }
}
