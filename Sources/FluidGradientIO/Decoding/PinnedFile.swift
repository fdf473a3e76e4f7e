/// The bytes of a file at an address that stays put for the life of this object, for a
/// C decoder that reads them in place for as long as it lives (libwebp, libavif).
final class PinnedFile {
    /// The first byte; valid while this object lives.
    let bytes: UnsafePointer<UInt8>
    let count: Int
    private let storage: UnsafeMutableRawBufferPointer

    /// Reads `path` whole: a file or a pipe, up to ``largestImageFile`` bytes.
    ///
    /// - Throws: a ``FileError`` that names the file when it cannot be read.
    init(_ path: String) throws {
        let contents = try readFile(path, what: "image", limit: largestImageFile)
        // One byte at least, so that an empty file has an address too.
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(contents.count, 1), alignment: 16)
        storage.copyBytes(from: contents)
        bytes = UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: UInt8.self))
        count = contents.count
    }

    deinit { storage.deallocate() }
}

/// The most an animated image's file may hold: as for a PNG from a pipe, 1 GiB.
let largestImageFile = 1 << 30
