import Foundation
import Testing

@testable import FluidGradientStudio

@Suite("Job zip archive")
struct JobZipTests {
    /// Lists and extracts `archive` with Python's zipfile, a reader written apart from ours.
    private static func pythonEntries(_ archive: String) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import zipfile,sys,json; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; "
                + "print(json.dumps({n: z.read(n).decode('latin-1') for n in z.namelist()}))",
            archive,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode([String: String].self, from: output)
    }

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
        let entries = try await onOwnThread { try Self.pythonEntries(archive) }
        #expect(entries.keys.sorted() == files.keys.sorted())
        for (name, data) in files {
            #expect(entries[name].map { Data($0.unicodeScalars.map { UInt8($0.value) }) } == data)
        }
    }

    @Test("the CRC-32 of the standard check string is CBF43926")
    func crcCheckValue() {
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
    }
}
