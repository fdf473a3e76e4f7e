import FluidGradientIO
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

@Suite struct DesignTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    @Test func listsTheBuiltInPresetsWithTheirDesigns() async throws {
        try await withStudio { client in
            let presets = try await client.execute(uri: "/v1/presets", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                return try #require(try response.jsonObject()["presets"] as? [[String: String]])
            }
            #expect(presets.map { $0["name"] } == Preset.builtInNames)
            for entry in presets {
                let name = try #require(entry["name"]), design = try #require(entry["design"])
                let preset = try Preset(builtIn: name)
                #expect(entry["description"] == preset.description)
                try await client.execute(uri: "/v1/designs/\(design)", method: .get) {
                    #expect(String(buffer: $0.body) == preset.jsonText)
                }
            }
        }
    }

    @Test func showsABuiltInPresetAsItsNormalizedJSON() async throws {
        try await withStudio { client in
            try await client.execute(uri: "/v1/presets/aurora", method: .get) { response in
                #expect(response.status == .ok)
                let aurora = try Preset(builtIn: "aurora")
                #expect(String(buffer: response.body) == aurora.jsonText)
            }
            try await client.execute(uri: "/v1/presets/auroraa", method: .get) { response in
                let problem = try response.expectProblem(.notFound, slug: "not-found")
                #expect((problem["detail"] as? String)?.contains("aurora") == true)
            }
        }
    }

    /// The id covers the whole preset, its name and description too: the same preset posted
    /// again under another name is another design, and neither replaces the other (whose
    /// name a job's file takes). Their frames are the same pixels, under one entity tag.
    @Test func postsADesignUnderTheAddressOfItsWholePreset() async throws {
        try await withStudio { client in
            let body = ##"{"name": "a", "colors": ["#ff0000", "#00ff00"], "size": "64x36", "seed": 3}"##
            let posted = try await client.execute(
                uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: body)
            ) { try $0.jsonObject() }
            let id = try #require(posted["id"] as? String)
            #expect(id.count == 64 && id.allSatisfy(\.isHexDigit))
            let preset = try Preset(json: Data(body.utf8), file: "x")
            #expect(posted["frameCount"] as? Int == preset.frameCount)
            let object = try #require(posted["preset"] as? [String: Any])
            let normalized = try JSONSerialization.jsonObject(with: Data(preset.jsonText.utf8)) as? [String: Any]
            #expect(NSDictionary(dictionary: object) == NSDictionary(dictionary: try #require(normalized)))
            let renamed =
                ##"{"name": "b", "description": "other", "colors": ["#f00", "#0f0"], "size": "64x36", "seed": 3}"##
            let other = try await client.execute(
                uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: renamed)
            ) { try #require(try $0.jsonObject()["id"] as? String) }
            #expect(other != id)
            let latest = try Preset(json: Data(renamed.utf8), file: "x")
            for (address, expected) in [(id, preset.jsonText), (other, latest.jsonText)] {
                try await client.execute(uri: "/v1/designs/\(address)", method: .get) {
                    #expect(String(buffer: $0.body) == expected)
                }
            }
            var frames: [(tag: String?, bytes: [UInt8])] = []
            for address in [id, other] {
                try await client.execute(uri: "/v1/designs/\(address)/frames/64x36/1.png", method: .get) {
                    frames.append(($0.headers[.eTag], $0.bytes))
                }
            }
            #expect(frames[0].tag != nil && frames[0].tag == frames[1].tag && frames[0].bytes == frames[1].bytes)
            try await client.execute(uri: "/v1/designs/\(String(repeating: "0", count: 64))", method: .get) {
                try $0.expectProblem(.notFound)
            }
        }
    }

    @Test func refusesABadPresetWithItsFileLineKeyPathAndReason() async throws {
        try await withStudio { client in
            let body = "{\n  \"colors\": [\"#fff\"],\n  \"blobSize\": {\"min\": 0.9, \"max\": 9}\n}"
            try await client.execute(
                uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: body)
            ) {
                let problem = try $0.expectProblem(.badRequest, slug: "invalid-preset")
                #expect(problem["file"] as? String == "request")
                #expect(problem["line"] as? Int == 3)
                #expect(problem["keyPath"] as? String == "blobSize.max")
                let reason = try #require(problem["reason"] as? String)
                #expect(problem["detail"] as? String == "request:3: blobSize.max: \(reason)")
            }
            try await client.execute(
                uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: "{\"colors\": [")
            ) {
                let problem = try $0.expectProblem(.badRequest, slug: "invalid-preset")
                #expect(problem["line"] as? Int == 1)
                #expect(problem["keyPath"] as? String == "")
            }
            let colour = ##"{"colors": ["#fff", "#ggg"]}"##
            try await client.execute(
                uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: colour)
            ) {
                let keyPath = try $0.expectProblem(.badRequest)["keyPath"] as? String
                #expect(keyPath == "colors[1]")
            }
        }
    }

    @Test func refusesABodyOverTheLimitAndAnotherMediaType() async throws {
        try await withStudio(.changed { $0.maxBodyBytes = 100 }) { client in
            let big = "{\"colors\": [\"#fff\"], \"description\": \"\(String(repeating: "x", count: 200))\"}"
            try await client.execute(
                uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: big)
            ) {
                let problem = try $0.expectProblem(.contentTooLarge, slug: "body-too-large")
                #expect(problem["limit"] as? Int == 100)
            }
            try await client.execute(
                uri: "/v1/designs", method: .post, headers: [.contentType: "text/plain"],
                body: ByteBuffer(string: "{\"colors\": [\"#fff\"]}")
            ) { try $0.expectProblem(.unsupportedMediaType, slug: "unsupported-media-type") }
        }
    }
}
