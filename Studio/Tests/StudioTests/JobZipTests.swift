import FluidGradientStudio
import Foundation
import Testing

@Suite("Job zip archive")
struct JobZipTests {
    @Test("a folder's files, nested and empty ones too, come back out of the archive")
    func roundTrip() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zip-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/media", withIntermediateDirectories: true)
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let files = [
            "index.html": Data("<!doctype html>".utf8), "media/loop.webm": Data(bytes), "media/empty.txt": Data(),
        ]
        for (name, data) in files { try data.write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let archive = folder + ".zip"
        defer { try? FileManager.default.removeItem(atPath: archive) }
        try ZipArchive.write(folder: folder, to: archive)
        #expect(try await onOwnThread { try zipEntries(archive) } == files)
    }

    @Test("the CRC-32 of the standard check string is CBF43926")
    func crcCheckValue() {
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
    }
}
