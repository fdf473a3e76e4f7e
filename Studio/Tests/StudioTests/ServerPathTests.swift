import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

/// No response shows a path of the server's: the still encoders fail on a temporary file of
/// their own, and its directory is cut from the problem.
@Suite struct ServerPathTests {
    @Test func aFrameTheEncoderRefusesNamesNoServerPath() async throws {
        let temporary = FileManager.default.temporaryDirectory.path
        try await withStudio { client in
            for uri in [
                "/v1/presets/aurora/frames/16384x506/1.webp", "/v1/presets/aurora/frames/1x1/0.avif",
                "/v1/presets/aurora/frames/65x64/0.avif",
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    let problem = try response.expectProblem(.unprocessableContent)
                    let detail = try #require(problem["detail"] as? String)
                    #expect(!detail.contains(temporary) && !detail.contains("/tmp/"), "\(uri): \(detail)")
                    #expect(detail.contains("still."), "\(uri): the file's own name stays: \(detail)")
                }
            }
        }
    }

    @Test func cutsServerDirectoriesFromAProblem() {
        let temporary = FileManager.default.temporaryDirectory.path
        let text = "\(temporary)/fluidgradient-Ab12/still.webp: a WebP is at most 16383 pixels a side"
        #expect(Problem.removingServerPaths(text) == "still.webp: a WebP is at most 16383 pixels a side")
        let quoted = "cannot open '/tmp/x/y.png' or \"/tmp/z.avif\", see /v1/designs"
        #expect(Problem.removingServerPaths(quoted) == "cannot open 'y.png' or \"z.avif\", see /v1/designs")
        var problem = Problem(.badRequest, "x", title: "X", detail: text)
        problem.extensions["file"] = .string("/tmp/a/b.png")
        let cleaned = problem.withoutServerPaths
        #expect(cleaned.detail.hasPrefix("still.webp:"))
        #expect(cleaned.extensions["file"] == .string("b.png"))
    }
}
