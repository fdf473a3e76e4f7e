/// A borrowed buffer that the chunks of ``parallelChunks(_:threads:minimumChunk:_:)``
/// reach at once: the one place where the render stages hand raw memory across threads.
///
/// It is safe to share because of how the stages use it, which the compiler cannot see:
/// either nobody writes the buffer while the chunks run, or each chunk writes only its
/// own elements (its own rows). The buffer must outlive the chunks, as it does inside
/// the `withUnsafe…` closure that lends it. Every access checks its bounds in debug
/// builds.
struct SharedBuffer<Element>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Element>?
    /// Elements in the buffer.
    let count: Int

    /// Shares a buffer that the chunks write, each its own elements.
    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        base = buffer.baseAddress
        count = buffer.count
    }

    /// Shares a buffer that the chunks only read.
    init(_ buffer: UnsafeBufferPointer<Element>) {
        base = UnsafeMutablePointer(mutating: buffer.baseAddress)
        count = buffer.count
    }

    /// Element `index`.
    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count, "index \(index) outside a shared buffer of \(count)")
            return base.unsafelyUnwrapped[index]
        }
        nonmutating set {
            assert(index >= 0 && index < count, "index \(index) outside a shared buffer of \(count)")
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    /// The address of element `offset`, from which `length` elements are used.
    ///
    /// - Parameters:
    ///   - offset: The first element.
    ///   - length: How many elements from `offset` the caller reads or writes.
    /// - Returns: A pointer to element `offset`.
    @inline(__always)
    func pointer(at offset: Int, length: Int) -> UnsafeMutablePointer<Element> {
        assert(
            offset >= 0 && length >= 0 && offset + length <= count,
            "elements \(offset)..<\(offset + length) outside a shared buffer of \(count)")
        return base.unsafelyUnwrapped + offset
    }

    /// The whole buffer, for a chunk to write its own elements through.
    var mutableBuffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    /// The whole buffer, read-only.
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
}

extension SharedBuffer where Element == UInt8 {
    /// Shares an output's bytes, which the chunks write, each its own rows.
    init(bytes: UnsafeMutableRawBufferPointer) {
        self.init(bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// The whole buffer as raw bytes, for a chunk to write its own rows through.
    var bytes: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(mutableBuffer) }
}
