/// Fixed-size pixel storage with value semantics: a copy is independent, and the bytes
/// are copied only when a shared copy is written to. Drawing code reaches the bytes only
/// inside `withUnsafeMutableBytes`, so the hot loops run on raw pointers.
package struct PixelBuffer: Hashable, Sendable {
    package let width: Int
    package let height: Int
    package let format: PixelFormat
    /// The Y′CbCr matrix of a 4:2:0 format (RGB formats ignore it).
    package let matrix: YUVMatrix
    /// The frame in `format`'s layout, row after row.
    package private(set) var bytes: [UInt8]

    package init(width: Int, height: Int, format: PixelFormat, matrix: YUVMatrix = .bt709) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        self.width = width
        self.height = height
        self.format = format
        self.matrix = matrix
        bytes = [UInt8](repeating: 0, count: format.byteCount(width: width, height: height))
    }

    /// A buffer whose bytes `initialize` writes, every one of them, before anyone reads
    /// them: a decoder writes its rows straight into the frame's storage.
    ///
    /// - Parameters:
    ///   - width: Pixels per row, at least 1.
    ///   - height: Rows, at least 1.
    ///   - format: The layout `initialize` writes.
    ///   - matrix: The Y′CbCr matrix of a 4:2:0 format (RGB formats ignore it).
    ///   - initialize: Writes all `format.byteCount(width:height:)` bytes it is given.
    /// - Throws: What `initialize` throws; the buffer is then not made.
    package init<Failure: Error>(
        width: Int, height: Int, format: PixelFormat, matrix: YUVMatrix = .bt709,
        initializingWith initialize: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        let count = format.byteCount(width: width, height: height)
        var failure: Failure?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(Failure) {
                try initialize(UnsafeMutableRawBufferPointer(buffer))
                initialized = count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        self.width = width
        self.height = height
        self.format = format
        self.matrix = matrix
        self.bytes = bytes
    }

    package var byteCount: Int { bytes.count }

    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    package mutating func withUnsafeMutableBytes<R>(
        _ body: (UnsafeMutableRawBufferPointer) throws -> R
    ) rethrows -> R {
        try bytes.withUnsafeMutableBytes(body)
    }

    /// The channel values of pixel `(x, y)` of a packed format, as stored (0...255 or 0...65535).
    package func channels(x: Int, y: Int) -> [Int] {
        guard let bytesPerPixel = format.bytesPerPixel else {
            preconditionFailure("channels(x:y:) reads packed formats only")
        }
        let offset = (y * width + x) * bytesPerPixel
        if format.bitDepth == 16 {
            return (0..<bytesPerPixel / 2).map { Int(bytes[offset + 2 * $0]) | Int(bytes[offset + 2 * $0 + 1]) << 8 }
        }
        return (0..<bytesPerPixel).map { Int(bytes[offset + $0]) }
    }
}
