import Foundation

/// Writes a folder as a zip archive of stored (uncompressed) entries: the bundle's files are
/// already compressed videos and images, and a stored zip needs no codec.
///
/// The entries are the folder's regular files in path order, each dated 1980-01-01 00:00, so
/// the same folder always gives the same bytes.
package enum ZipArchive {
    /// Writes the files under `folder` into a new archive at `archive`.
    ///
    /// - Parameters:
    ///   - folder: the folder whose files (at any depth) become the entries, named relative to it.
    ///   - archive: the zip file to create; it must not exist.
    /// - Throws: ``ZipArchiveError`` when a file is too large for a 32-bit zip, or the file
    ///   system's error when a file cannot be read or the archive written.
    package static func write(folder: String, to archive: String) throws {
        let names = try entryNames(in: folder)
        guard FileManager.default.createFile(atPath: archive, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: archive])
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: archive))
        defer { try? output.close() }
        var central = Data()
        var offset = 0
        for name in names {
            let contents = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let entry = try Entry(name: name, contents: contents, offset: offset)
            let local = entry.localHeader()
            try output.write(contentsOf: local)
            try output.write(contentsOf: contents)
            central.append(entry.centralHeader())
            offset += local.count + contents.count
        }
        guard offset <= Int(UInt32.max), names.count <= Int(UInt16.max) else { throw ZipArchiveError.tooLarge }
        var end = Data()
        end.appendLittleEndian(UInt32(0x0605_4b50))
        end.appendLittleEndian(UInt32(0))  // this disk, and the disk with the central directory
        end.appendLittleEndian(UInt16(names.count))
        end.appendLittleEndian(UInt16(names.count))
        end.appendLittleEndian(UInt32(central.count))
        end.appendLittleEndian(UInt32(offset))
        end.appendLittleEndian(UInt16(0))  // comment length
        try output.write(contentsOf: central + end)
    }

    /// The relative paths of the regular files under `folder`, sorted.
    private static func entryNames(in folder: String) throws -> [String] {
        let root = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder]) }
        var names: [String] = []
        for case let url as URL in walker
        where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            names.append(String(url.standardizedFileURL.path.dropFirst(root.path.count + 1)))
        }
        return names.sorted()
    }

    /// One stored entry's header fields.
    private struct Entry {
        let name: Data
        let crc: UInt32
        let size: UInt32
        let offset: UInt32

        init(name: String, contents: Data, offset: Int) throws {
            guard contents.count <= Int(UInt32.max), offset <= Int(UInt32.max) else { throw ZipArchiveError.tooLarge }
            self.name = Data(name.utf8)
            crc = CRC32.checksum(contents)
            size = UInt32(contents.count)
            self.offset = UInt32(offset)
        }

        /// The fields the local and the central header share, from "version needed" on.
        private func common() -> Data {
            var data = Data()
            data.appendLittleEndian(UInt16(20))  // version needed: 2.0
            data.appendLittleEndian(UInt16(0x0800))  // flags: the name is UTF-8
            data.appendLittleEndian(UInt16(0))  // method: stored
            data.appendLittleEndian(UInt16(0))  // time 00:00:00
            data.appendLittleEndian(UInt16(0x21))  // date 1980-01-01
            data.appendLittleEndian(crc)
            data.appendLittleEndian(size)  // compressed size
            data.appendLittleEndian(size)
            data.appendLittleEndian(UInt16(name.count))
            data.appendLittleEndian(UInt16(0))  // extra field length
            return data
        }

        func localHeader() -> Data {
            var data = Data()
            data.appendLittleEndian(UInt32(0x0403_4b50))
            return data + common() + name
        }

        func centralHeader() -> Data {
            var data = Data()
            data.appendLittleEndian(UInt32(0x0201_4b50))
            data.appendLittleEndian(UInt16(0x0314))  // made by: Unix, 2.0
            data.append(common())
            data.appendLittleEndian(UInt16(0))  // comment length
            data.appendLittleEndian(UInt16(0))  // disk number
            data.appendLittleEndian(UInt16(0))  // internal attributes
            data.appendLittleEndian(UInt32(0o100644) << 16)  // external: a regular file, rw-r--r--
            data.appendLittleEndian(offset)
            return data + name
        }
    }
}

/// A folder that a 32-bit zip cannot hold.
enum ZipArchiveError: Error, CustomStringConvertible {
    /// A file, the archive, or the number of files is past the 32-bit zip's limits.
    case tooLarge

    var description: String { "the bundle is too large for a zip archive (4 GiB, 65535 files)" }
}

/// The CRC-32 of zip and PNG (polynomial 0xEDB88320, reflected).
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }

    /// The checksum of `data`.
    package static func checksum(_ data: Data) -> UInt32 {
        ~data.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}

extension Data {
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
