import FluidGradientIO
import Foundation
import Testing

/// A bundle written one encode at a time, through `Output.bundle(directory:encodesAtOnce:)`:
/// the same files, and never two ffmpeg encoders alive at once.
@Suite struct BundleEncodesAtOnceTests {
    /// Counts this process's ffmpeg children writing under `prefix` every few
    /// milliseconds until stopped (other suites' encoders run at the same time).
    final class Watch: @unchecked Sendable {
        let prefix: String
        private let lock = NSLock()
        private var counts: [Int] = []
        private var stopped = false

        init(prefix: String) { self.prefix = prefix }

        /// Starts watching on a thread of its own.
        func start() {
            Thread {
                while !self.lock.withLock({ self.stopped }) {
                    let count = BundleEncodesAtOnceTests.childEncoders(writingUnder: self.prefix)
                    self.lock.withLock { self.counts.append(count) }
                    usleep(2000)
                }
            }.start()
        }

        /// Stops watching and returns what it saw.
        func stop() -> [Int] {
            lock.withLock {
                stopped = true
                return counts
            }
        }
    }

    @Test func aBundleEncodedOneAtATimeIsTheSameBundle() async throws {
        let scratch = Scratch()
        let preset = try WriteTests.clip()
        // A bundle is built in a hidden staging directory beside its destination. The control:
        // all at once, the watch sees several encoders together.
        let control = Watch(prefix: scratch.file(".together"))
        control.start()
        try await preset.write(to: .bundle(directory: scratch.file("together")))
        #expect(control.stop().max() ?? 0 > 1)
        let watch = Watch(prefix: scratch.file(".apart"))
        watch.start()
        try await preset.write(to: .bundle(directory: scratch.file("apart"), encodesAtOnce: 1))
        let counts = watch.stop()
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.file("together")).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("apart")).sorted() == names)
        for name in names {
            let together = try WriteTests.bytes(scratch.file("together/" + name))
            #expect(try WriteTests.bytes(scratch.file("apart/" + name)) == together, "\(name)")
        }
        #expect(counts.max() == 1, "\(counts)")
    }

    /// How many of this process's children are ffmpeg with an argument that starts with
    /// `prefix`, from /proc.
    static func childEncoders(writingUnder prefix: String) -> Int {
        let me = String(getpid())
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.count { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard stat.contains("(ffmpeg)"), fields.count > 1, fields[1] == me,
                let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
            else { return false }
            return line.split(separator: 0).contains { String(decoding: $0, as: UTF8.self).hasPrefix(prefix) }
        }
    }
}
