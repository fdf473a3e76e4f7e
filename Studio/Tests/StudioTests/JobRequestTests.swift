import FluidGradientIO
import FluidGradientStudio
import Foundation
import Testing

@Suite("Job request")
struct JobRequestTests {
    private let designs = ["d1": smallPreset()]

    private func spec(_ json: String, limits: JobLimits = JobLimits()) throws -> JobSpec {
        let request = try JSONDecoder().decode(JobRequest.self, from: Data(json.utf8))
        return try request.spec(limits: limits) { designs[$0] }
    }

    @Test("a design, a format and the defaults")
    func defaults() throws {
        let job = try spec(#"{"design": "d1", "format": "webm"}"#)
        #expect(job.format == .video(.webm))
        #expect(job.encodeSize == .auto)
        #expect(job.preset == smallPreset())
        #expect(job.fileName == "small.webm")
    }

    @Test("duration and fps replace the design's")
    func overrides() throws {
        let job = try spec(#"{"design": "d1", "format": "bundle", "encodeSize": "full", "duration": 2, "fps": 24}"#)
        #expect(job.preset.duration == 2)
        #expect(job.preset.fps == 24)
        #expect(job.preset.frameCount == 48)
        #expect(job.fileName == "small.zip")
    }

    @Test("a built-in preset by name")
    func builtInPreset() throws {
        let name = try #require(Preset.builtInNames.first)
        let expected = try Preset(builtIn: name)
        #expect(try spec(#"{"preset": "\#(name)", "format": "gif"}"#).preset == expected)
    }

    @Test("frames up to the limit pass; one more, or an absurd duration, is 422")
    func frameLimit() throws {
        #expect(try spec(#"{"design": "d1", "format": "mp4", "duration": 120, "fps": 30}"#).preset.frameCount == 3600)
        for json in [
            #"{"design": "d1", "format": "mp4", "duration": 120.04, "fps": 30}"#,
            #"{"design": "d1", "format": "mp4", "duration": 1e300, "fps": 1e300}"#,
        ] {
            let problem = #expect(throws: JobProblem.self) { try spec(json) }
            #expect(problem?.status == 422)
            #expect(problem?.type.hasSuffix("/too-many-frames") == true)
        }
    }

    @Test("a design over the pixel limit is 422")
    func pixelLimit() {
        var limits = JobLimits()
        limits.maxPixels = 64 * 35
        let problem = #expect(throws: JobProblem.self) {
            try spec(#"{"design": "d1", "format": "mp4"}"#, limits: limits)
        }
        #expect(problem?.status == 422)
    }

    @Test("bad fields: 400 for a value not in the list, 404 for an unknown design, 422 out of bounds")
    func badFields() {
        let cases: [(String, Int)] = [
            (#"{"design": "d1", "format": "mkv"}"#, 400),
            (#"{"design": "d1", "format": "mp4", "encodeSize": "half"}"#, 400),
            (#"{"format": "mp4"}"#, 400),
            (#"{"design": "d1", "preset": "x", "format": "mp4"}"#, 400),
            (#"{"design": "nope", "format": "mp4"}"#, 404),
            (#"{"preset": "no such preset", "format": "mp4"}"#, 404),
            (#"{"design": "d1", "format": "mp4", "fps": 0}"#, 422),
            (#"{"design": "d1", "format": "mp4", "duration": -1}"#, 422),
            (#"{"design": "d1", "format": "mp4", "fps": 500}"#, 422),
            (#"{"design": "d1", "format": "mp4", "duration": 0.0001}"#, 422),
        ]
        for (json, status) in cases {
            let problem = #expect(throws: JobProblem.self, "\(json)") { try spec(json) }
            #expect(problem?.status == status, "\(json)")
        }
    }

    @Test("a name with unsafe characters gives a safe file name")
    func safeFileName() {
        var preset = smallPreset()
        preset.name = "../a b\"c"
        #expect(JobSpec(preset: preset, format: .video(.mp4), encodeSize: .auto).fileName == "abc.mp4")
        preset.name = "///"
        #expect(JobSpec(preset: preset, format: .video(.gif), encodeSize: .auto).fileName == "fluidgradient.gif")
    }
}
