import FluidGradient
import FluidGradientIO
import FluidGradientStudio
import Foundation
import Testing

/// Jobs are held to budgets decided before they are taken (pixels × frames, the memory of
/// their encoders), to a time limit, and to a share for each client.
@Suite struct JobBudgetTests {
    static func preset(_ size: (Int, Int), seconds: Double, fps: Double = 60) -> Preset {
        var preset = smallPreset(duration: seconds, width: size.0, height: size.1)
        preset.fps = fps
        return preset
    }

    /// The largest design (3840x2160, 60 s at 60 fps: 29.9 billion pixels × frames) is over
    /// the default budget of 8 billion, whatever its format; 1920x1080 for 60 s is not.
    @Test func refusesAJobOverItsPixelsTimesFrames() throws {
        let limits = JobLimits()
        for format in JobFormat.allCases {
            let refusal = #expect(throws: JobProblem.self) {
                try JobPlan(preset: Self.preset((3840, 2160), seconds: 60), format: format, limits: limits)
            }
            #expect(refusal?.status == 422 && refusal?.type.hasSuffix("/job-too-large") == true)
            #expect(refusal?.detail.contains("29.86 billion") == true, "\(refusal?.detail ?? "")")
        }
        let plan = try JobPlan(preset: Self.preset((1920, 1080), seconds: 60), format: .video(.mp4), limits: limits)
        #expect(plan.pixelFrames == 1920 * 1080 * 3600)
    }

    /// A bundle encodes everything at once while that needs at most a quarter of the memory
    /// budget, one file after another above it, and is refused when even one file alone is
    /// over the budget.
    @Test func plansABundlesEncodesWithinTheMemoryBudget() throws {
        var limits = JobLimits()
        let small = try JobPlan(preset: Self.preset((640, 360), seconds: 1), format: .bundle, limits: limits)
        #expect(small.encodesAtOnce == nil)
        let large = try JobPlan(preset: Self.preset((3840, 2160), seconds: 1), format: .bundle, limits: limits)
        #expect(large.encodesAtOnce == 1)
        #expect(large.memoryBytes <= limits.memoryBytes)
        #expect(small.memoryBytes < large.memoryBytes)
        limits.memoryBytes = large.memoryBytes - 1
        let refusal = #expect(throws: JobProblem.self) {
            try JobPlan(preset: Self.preset((3840, 2160), seconds: 1), format: .bundle, limits: limits)
        }
        #expect(refusal?.status == 422 && refusal?.detail.contains("memory budget") == true)
    }

    /// A video or animated image is planned at the size it encodes at: a GIF's palette pass
    /// holds every frame, which for aurora's 600 frames at 1920x1080 is over the default
    /// budget, but `auto` encodes it at 640x360, nine times fewer pixels (the page's GIF of
    /// a built-in preset was refused before).
    @Test func plansAnEncodeAtItsEncodeSize() throws {
        let aurora = try Preset(builtIn: "aurora")
        #expect(aurora.width == 1920 && aurora.height == 1080 && aurora.frameCount == 600)
        let limits = JobLimits()
        let refusal = #expect(throws: JobProblem.self) {
            try JobPlan(preset: aurora, format: .video(.gif), encodeSize: .full, limits: limits)
        }
        #expect(refusal?.detail.contains("at 1920x1080") == true, "\(refusal?.detail ?? "")")
        let auto = EncodeSizeRequest.auto.dimensions(for: aurora)
        #expect(auto.width == 640 && auto.height == 360)
        let plan = try JobPlan(preset: aurora, format: .video(.gif), encodeSize: .auto, limits: limits)
        #expect(plan.memoryBytes < limits.memoryBytes / 4)
        #expect(plan.pixelFrames == 1920 * 1080 * 600)
    }

    /// The queue starts a job only when its memory fits beside the running ones'.
    @Test func startsAJobWhenItsMemoryIsFree() async throws {
        let preset = smallPreset(duration: 60)
        var spec = JobSpec(preset: preset, format: .video(.mp4), encodeSize: .full)
        spec.plan = try JobPlan(preset: preset, format: .video(.mp4), limits: JobLimits())
        var limits = JobLimits()
        limits.maxRunning = 2
        limits.memoryBytes = try #require(spec.plan).memoryBytes * 3 / 2
        let manager = JobManager(limits: limits)
        let first = try manager.submit(spec, client: "a")
        let second = try manager.submit(spec, client: "b")
        #expect(try manager.snapshot(of: first.id).state == .running)
        #expect(try manager.snapshot(of: second.id).state == .queued, "two would need more than the budget")
        try manager.cancel(first.id)
        #expect(try await eventually { try manager.snapshot(of: second.id).state == .running })
        try manager.cancel(second.id)
        await manager.shutdown()
    }

    @Test func stopsAJobAtItsTimeLimit() async throws {
        var limits = JobLimits()
        limits.timeLimit = .milliseconds(300)
        let manager = JobManager(limits: limits)
        let job = try manager.submit(
            JobSpec(preset: smallPreset(duration: 60), format: .video(.mp4), encodeSize: .full))
        #expect(try await eventually { try manager.snapshot(of: job.id).state.isTerminal })
        let snapshot = try manager.snapshot(of: job.id)
        #expect(snapshot.state == .failed)
        #expect(snapshot.error?.type.hasSuffix("/job-time-limit") == true)
        #expect(snapshot.error?.status == 422)
        #expect(await eventually { manager.runningCount == 0 })
        #expect(manager.workspace?.entries() == [])
        await manager.shutdown()
    }

    /// One client has at most half the running and queued places; another still gets one.
    @Test func holdsAClientToItsShareOfTheJobs() async throws {
        var limits = JobLimits()
        limits.maxRunning = 1
        limits.maxQueued = 3
        let manager = JobManager(limits: limits)
        let long = JobSpec(preset: smallPreset(duration: 60), format: .video(.mp4), encodeSize: .full)
        let mine = [try manager.submit(long, client: "a"), try manager.submit(long, client: "a")]
        let refusal = #expect(throws: JobProblem.self) { try manager.submit(long, client: "a") }
        #expect(refusal?.status == 503 && refusal?.type.hasSuffix("/client-share") == true)
        #expect(refusal?.retryAfter != nil)
        let theirs = try manager.submit(long, client: "b")
        for job in mine + [theirs] { try manager.cancel(job.id) }
        await manager.shutdown()
    }
}
