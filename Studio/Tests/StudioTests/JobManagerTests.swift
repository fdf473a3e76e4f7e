import FluidGradientIO
import FluidGradientStudio
import Foundation
import Testing

@Suite("Job manager")
struct JobManagerTests {
    /// Runs `spec` to its end, recording the progress seen while polling it.
    private func runToEnd(_ manager: JobManager, _ spec: JobSpec) async throws -> (JobSnapshot, [Double]) {
        let (last, seen) = try await snapshotsToEnd(manager, spec)
        return (last, seen.map(\.progress))
    }

    /// Runs `spec` to its end, recording every snapshot seen while polling it.
    private func snapshotsToEnd(_ manager: JobManager, _ spec: JobSpec) async throws -> (JobSnapshot, [JobSnapshot]) {
        let job = try manager.submit(spec)
        var seen: [JobSnapshot] = []
        var last = job
        try await eventually {
            last = try manager.snapshot(of: job.id)
            if seen.last != last { seen.append(last) }
            return last.state.isTerminal
        }
        return (last, seen)
    }

    @Test("an mp4 job runs to done, its file decodes to the frame count, and goes once sent")
    func mp4RunsToDone() async throws {
        let manager = JobManager()
        let (done, progress) = try await runToEnd(
            manager, JobSpec(preset: smallPreset(), format: .video(.mp4), encodeSize: .full))
        #expect(done.state == .done)
        #expect(progress.last == 1)
        #expect(progress == progress.sorted())
        #expect(done.file == "small.mp4")
        let file = try manager.claimResult(of: done.id)
        #expect(file.contentType == "video/mp4")
        #expect(try await onOwnThread { try probedFrameCount(file.path) } == 15)
        #expect(done.bytes == (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int))
        manager.resultSent(done.id, completely: true)
        #expect(manager.workspace?.entries() == [])
        #expect(throws: JobProblem.resultGone(done.id, because: "was downloaded")) {
            try manager.claimResult(of: done.id)
        }
        await manager.shutdown()
    }

    @Test(
        "every video and animated-image format renders to a file of its own type",
        arguments: [
            VideoContainer.mp4, .webm, .mov, .gif, .webp, .apng, .avif,
        ])
    func everyFormat(container: VideoContainer) async throws {
        let format = JobFormat.video(container)
        let manager = JobManager()
        let preset = smallPreset(duration: 0.2, width: 64, height: 64)
        let (done, _) = try await runToEnd(manager, JobSpec(preset: preset, format: format, encodeSize: .full))
        #expect(done.state == .done, "\(done.error?.detail ?? "")")
        #expect(done.file == "small." + format.rawValue)
        let file = try manager.claimResult(of: done.id)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file.path)))
        #expect(bytes.count == done.bytes)
        let head = String(decoding: bytes.prefix(64).map { (32...126).contains($0) ? $0 : 46 }, as: UTF8.self)
        let signature: [VideoContainer: String] = [
            .mp4: "^....ftyp", .mov: "^....ftypqt", .webm: "^\\.E\\.\\.", .gif: "^GIF89a", .webp: "^RIFF....WEBP",
            .apng: "^.PNG.*acTL", .avif: "^....ftypavis",
        ]
        #expect(head.range(of: signature[container]!, options: .regularExpression) != nil, "\(head)")
        #expect(file.contentType == container.mimeType)
        await manager.shutdown()
    }

    @Test("a webp job's file holds one animation frame per video frame")
    func webpFrames() async throws {
        let manager = JobManager()
        let (done, _) = try await runToEnd(
            manager, JobSpec(preset: smallPreset(), format: .video(.webp), encodeSize: .full))
        #expect(done.state == .done)
        let file = try manager.claimResult(of: done.id)
        #expect(webpFrameCount(try Data(contentsOf: URL(fileURLWithPath: file.path))) == 15)
        await manager.shutdown()
    }

    @Test("a send that breaks off leaves the file to download again")
    func brokenSendKeepsFile() async throws {
        let manager = JobManager()
        let (done, _) = try await runToEnd(
            manager, JobSpec(preset: smallPreset(), format: .video(.gif), encodeSize: .full))
        let first = try manager.claimResult(of: done.id)
        #expect(throws: JobProblem.self) { try manager.claimResult(of: done.id) }
        manager.resultSent(done.id, completely: false)
        #expect(try manager.claimResult(of: done.id).path == first.path)
        await manager.shutdown()
    }

    @Test("a bundle job's zip holds the bundle's page, manifest and loops")
    func bundleJob() async throws {
        let manager = JobManager()
        let preset = smallPreset(width: 128, height: 72)
        let (done, seen) = try await snapshotsToEnd(
            manager, JobSpec(preset: preset, format: .bundle, encodeSize: .auto))
        #expect(done.state == .done, "\(done.error?.detail ?? "")")
        let progress = seen.map(\.progress)
        #expect(progress.last == 1 && progress == progress.sorted())
        // The job says what it does after the frames: each codec, then the files measured,
        // not a long "100%" (issue 38, defect 5).
        var phases: [String] = []
        for phase in seen.compactMap(\.phase) where phases.last != phase { phases.append(phase) }
        #expect(phases.starts(with: ["encoding", "measuring"]), "\(phases)")
        let encoding = try #require(seen.last { $0.phase == "encoding" })
        #expect(encoding.steps?.map(\.name) == ["AV1", "HEVC", "VP9", "H.264", "posters"])
        #expect(seen.contains { $0.phase == "measuring" && $0.progress < 1 && $0.steps?.first?.name == "files" })
        #expect(done.file == "small.zip")
        let file = try manager.claimResult(of: done.id)
        #expect(file.contentType == "application/zip")
        let names = try await onOwnThread { try zipEntries(file.path) }.keys
        #expect(names.contains("index.html"))
        #expect(names.contains("manifest.json"))
        #expect(names.contains { $0.hasSuffix(".webm") })
        #expect(manager.workspace?.entries() == [done.id])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: manager.workspace!.directory(for: done.id)) == [
                "small.zip"
            ])
        await manager.shutdown()
    }

    @Test("a job whose size the encoder refuses fails with a 422 problem, the library's message")
    func failedJob() async throws {
        let manager = JobManager()
        let (failed, _) = try await runToEnd(
            manager, JobSpec(preset: smallPreset(), format: .bundle, encodeSize: .auto))
        #expect(failed.state == .failed)
        let problem = try #require(failed.error)
        #expect(problem.status == 422)
        #expect(problem.type.hasSuffix("/job-refused"))
        #expect(problem.detail.contains("AV1 needs a frame of at least 64x64"))
        #expect(!problem.detail.contains(manager.workspace!.path))
        #expect(manager.workspace?.entries() == [])
        #expect(throws: JobProblem.resultNotReady(failed.id, state: .failed)) { try manager.claimResult(of: failed.id) }
        await manager.shutdown()
    }

    @Test("cancelling a running job leaves nothing and reports cancelled")
    func cancelRunning() async throws {
        let manager = JobManager()
        let job = try manager.submit(
            JobSpec(preset: smallPreset(duration: 60, width: 320, height: 180), format: .video(.mp4), encodeSize: .full)
        )
        #expect(try await eventually { try manager.snapshot(of: job.id).progress > 0 })
        #expect(try manager.snapshot(of: job.id).state == .running)
        try manager.cancel(job.id)
        #expect(try manager.snapshot(of: job.id).state == .cancelled)
        #expect(await eventually { manager.runningCount == 0 })
        #expect(manager.workspace?.entries() == [])
        #expect(throws: JobProblem.resultGone(job.id, because: "was cancelled")) { try manager.claimResult(of: job.id) }
        await manager.shutdown()
    }

    @Test("past the running jobs and the queue, a job is refused with 503 and Retry-After")
    func queueFull() async throws {
        var limits = JobLimits()
        limits.maxRunning = 1
        limits.maxQueued = 1
        let manager = JobManager(limits: limits)
        let long = JobSpec(preset: smallPreset(duration: 60), format: .video(.mp4), encodeSize: .full)
        let first = try manager.submit(long, client: "a")
        let second = try manager.submit(long, client: "b")
        #expect(try manager.snapshot(of: second.id).state == .queued)
        let refusal = #expect(throws: JobProblem.self) { try manager.submit(long, client: "c") }
        #expect(refusal?.status == 503)
        #expect(refusal?.type.hasSuffix("/queue-full") == true)
        #expect(refusal?.retryAfter == limits.retryAfter)
        try manager.cancel(second.id)
        try manager.cancel(first.id)
        await manager.shutdown()
    }

    /// The refusal's Retry-After is the time until the oldest waiting file expires (here
    /// 15 minutes less the seconds the job took), not the queue's usual 10 s.
    @Test("past the finished files nobody downloaded, a job is refused with 503 until one goes")
    func tooManyKept() async throws {
        var limits = JobLimits()
        limits.maxKept = 1
        let manager = JobManager(limits: limits)
        let small = JobSpec(preset: smallPreset(), format: .video(.gif), encodeSize: .full)
        let (done, _) = try await runToEnd(manager, small)
        #expect(done.state == .done)
        let refusal = #expect(throws: JobProblem.self) { try manager.submit(small, client: "other") }
        #expect(refusal?.status == 503)
        #expect(refusal.map { (840...900).contains($0.retryAfter ?? 0) } == true, "\(String(describing: refusal))")
        try manager.cancel(done.id)
        let (next, _) = try await runToEnd(manager, small)
        #expect(next.state == .done)
        await manager.shutdown()
    }

    @Test("an unknown job is 404 for every operation")
    func unknownJob() {
        let manager = JobManager()
        let problem = JobProblem.unknownJob("0123")
        #expect(throws: problem) { try manager.snapshot(of: "0123") }
        #expect(throws: problem) { try manager.cancel("0123") }
        #expect(throws: problem) { try manager.claimResult(of: "0123") }
        #expect(manager.workspace == nil)
    }

    @Test("a finished job expires with its file")
    func expiry() async throws {
        var limits = JobLimits()
        limits.expiry = .milliseconds(1)
        let manager = JobManager(limits: limits)
        let job = try manager.submit(JobSpec(preset: smallPreset(), format: .video(.mp4), encodeSize: .full))
        // The record goes first, then the files: wait for both.
        #expect(await eventually { (try? manager.snapshot(of: job.id)) == nil })
        #expect(await eventually { manager.workspace?.entries() == [] })
        await manager.shutdown()
    }

    @Test("shutdown cancels running and queued jobs and removes the directory")
    func shutdown() async throws {
        var limits = JobLimits()
        limits.maxRunning = 1
        let manager = JobManager(limits: limits)
        let long = JobSpec(preset: smallPreset(duration: 60), format: .video(.mp4), encodeSize: .full)
        let running = try manager.submit(long)
        let queued = try manager.submit(long)
        #expect(try await eventually { try manager.snapshot(of: running.id).state == .running })
        let workspace = try #require(manager.workspace)
        await manager.shutdown()
        #expect(try manager.snapshot(of: running.id).state == .cancelled)
        #expect(try manager.snapshot(of: queued.id).state == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: workspace.path))
        #expect(throws: JobProblem.shuttingDown) { try manager.submit(long) }
    }
}

@Suite("Job failure")
struct JobFailureTests {
    @Test("an encode failure is a problem with the library's text, the private directory cut out")
    func encodeFailure() {
        let directory = "/tmp/fluidgradient-studio.Ab12Cd/0123abcd"
        let error = VideoError.encoderFailed(
            path: directory + "/small.mp4", frame: 3, ending: .exited(status: 1),
            stderrTail: "Could not open \(directory)/small.mp4")
        let problem = JobManager.problem(for: error, in: directory)
        #expect(problem.status == 500)
        #expect(problem.type.hasSuffix("/render-failed"))
        #expect(problem.detail == error.description.replacingOccurrences(of: directory + "/", with: ""))
        #expect(problem.detail.contains("small.mp4"))
        #expect(!problem.detail.contains("/tmp"))
    }
}
