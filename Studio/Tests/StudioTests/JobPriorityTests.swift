import FluidGradientIO
import FluidGradientStudio
import Foundation
import Testing

/// The nice value (field 19) of a `/proc/.../stat` file, read after the command's closing
/// parenthesis, since the command may hold spaces; nil when the file is gone.
private func niceness(ofStat path: String) -> Int? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // Fields 3 onwards follow the parenthesis: the state is field 3, the nice value field 19.
    return fields.count > 16 ? Int(fields[16]) : nil
}

/// The nice values of this process's threads, by thread id.
private func threadNiceness() -> [Int: Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Dictionary(
        uniqueKeysWithValues: tasks.compactMap { tid in
            niceness(ofStat: "/proc/self/task/\(tid)/stat").map { (Int(tid) ?? -1, $0) }
        })
}

/// The nice values of this process's `ffmpeg` children whose command line names `path`.
private func ffmpegNiceness(writingUnder path: String) -> [Int] {
    let me = Int(ProcessInfo.processInfo.processIdentifier)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            stat.contains("(ffmpeg)"), let close = stat.lastIndex(of: ")"),
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
            String(decoding: command, as: UTF8.self).contains(path)
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 16, Int(fields[1]) == me else { return nil }
        return Int(fields[16])
    }
}

@Suite("Job priority")
struct JobPriorityTests {
    @Test("the default job niceness is 19, the lowest")
    func defaultNiceness() {
        #expect(JobLimits().niceness == 19)
    }

    @Test(
        "a job's threads and its ffmpeg run at the job niceness; the service's own threads at 0",
        arguments: [Int32(19), 7])
    func jobRunsNiced(niceness: Int32) async throws {
        var limits = JobLimits()
        limits.niceness = niceness
        let manager = JobManager(limits: limits)
        let job = try manager.submit(
            JobSpec(preset: smallPreset(duration: 60, width: 320, height: 180), format: .video(.mp4), encodeSize: .full)
        )
        #expect(try await eventually { try manager.snapshot(of: job.id).progress > 0 })
        let directory = try #require(manager.workspace).directory(for: job.id)
        var children: [Int] = []
        #expect(
            await eventually {
                children = ffmpegNiceness(writingUnder: directory)
                return !children.isEmpty
            })
        #expect(children == [Int(niceness)])
        let threads = threadNiceness()
        let niced = threads.values.filter { $0 == Int(niceness) }.count
        // The executor's thread, the library's write thread and its frame writer, at least.
        #expect(niced >= 3, "\(niced) threads at \(niceness) of \(threads.count)")
        let pid = Int(ProcessInfo.processInfo.processIdentifier)
        #expect(threads[pid] == 0, "the main thread stays at 0")
        try manager.cancel(job.id)
        #expect(await eventually { manager.runningCount == 0 })
        await manager.shutdown()
    }
}
