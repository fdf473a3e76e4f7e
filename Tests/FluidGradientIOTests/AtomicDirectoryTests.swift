import FluidGradientIO
import Foundation
import Testing

@Suite struct AtomicDirectoryTests {
    private func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "fluidgradient-atomicdir-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Nothing is under the final name until commit, and a discard leaves nothing at all.
    @Test func aDirectoryAppearsWholeOrNotAtAll() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let kept = try AtomicDirectory(destination: root + "/kept", marker: "manifest.json")
        FileManager.default.createFile(atPath: kept.path(of: "manifest.json"), contents: Data("{}".utf8))
        #expect(!FileManager.default.fileExists(atPath: root + "/kept"))
        try kept.commit()
        #expect(FileManager.default.fileExists(atPath: root + "/kept/manifest.json"))
        let dropped = try AtomicDirectory(destination: root + "/dropped", marker: "manifest.json")
        FileManager.default.createFile(atPath: dropped.path(of: "a"), contents: Data())
        dropped.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["kept"])
    }

    /// An earlier result is replaced whole; a directory of other files is refused up front.
    @Test func anEarlierResultIsReplacedAndOtherFilesAreRefused() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/bundle", withIntermediateDirectories: true)
        for (name, contents) in [("manifest.json", "old"), ("stale.mp4", "")] {
            FileManager.default.createFile(atPath: root + "/bundle/" + name, contents: Data(contents.utf8))
        }
        let again = try AtomicDirectory(destination: root + "/bundle/", marker: "manifest.json")
        FileManager.default.createFile(atPath: again.path(of: "manifest.json"), contents: Data("new".utf8))
        try again.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/bundle") == ["manifest.json"])
        #expect(FileManager.default.contents(atPath: root + "/bundle/manifest.json") == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["bundle"])

        try FileManager.default.createDirectory(atPath: root + "/notes", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/notes/todo.txt", contents: Data("keep".utf8))
        #expect(throws: FileError.foreignDirectory(path: root + "/notes", marker: "manifest.json")) {
            try AtomicDirectory(destination: root + "/notes", marker: "manifest.json")
        }
        #expect(throws: FileError.bundleIsFile(path: root + "/notes/todo.txt")) {
            try AtomicDirectory(destination: root + "/notes/todo.txt", marker: "manifest.json")
        }
        #expect(FileManager.default.contents(atPath: root + "/notes/todo.txt") == Data("keep".utf8))
    }
}
