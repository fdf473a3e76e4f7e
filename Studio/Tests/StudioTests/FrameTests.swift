import FluidGradientIO
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

@Suite struct FrameTests {
    static let preset =
        ##"{"colors": ["#f43f5e", "#3b82f6", "#facc15"], "highlights": ["#fff"], "size": "64x36", "seed": 9}"##

    /// Posts `preset` and returns its id.
    static func post(_ preset: String, _ client: any TestClientProtocol) async throws -> String {
        try await client.execute(
            uri: "/v1/designs", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: preset)
        ) { try #require(try $0.jsonObject()["id"] as? String) }
    }

    @Test func servesTheLibrarysFrameAtTheDesignsSizeWithAStrongStableTag() async throws {
        let preset = try Preset(json: Data(Self.preset.utf8), file: "test")
        try await withStudio { client in
            let id = try await Self.post(Self.preset, client)
            let uri = "/v1/designs/\(id)/frames/64x36/1.25.png"
            let tag = try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                let png = try preset.frame(at: 1.25).pngData()
                #expect(response.bytes == Array(png))
                return try #require(response.headers[.eTag])
            }
            #expect(tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
            try await client.execute(uri: uri, method: .get) { #expect($0.headers[.eTag] == tag) }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == tag)
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            }
            try await client.execute(uri: "/v1/designs/\(id)/frames/64x36/1.250.png", method: .get) {
                #expect($0.headers[.eTag] == tag)
            }
            try await client.execute(uri: uri + "?depth=16", method: .get) { response in
                #expect(response.headers[.eTag] != tag)
                let png = try preset.frame(at: 1.25, depth: .sixteen).pngData()
                #expect(response.bytes == Array(png))
            }
        }
    }

    @Test func aColdTagIsAnswered304BeforeAnyRender() async throws {
        try await withStudio { client in
            let id = try await Self.post(Self.preset, client)
            let uri = "/v1/designs/\(id)/frames/64x36/3.png"
            let tag = try await client.execute(uri: uri, method: .get) { try #require($0.headers[.eTag]) }
            try await withStudio { other in
                let again = try await Self.post(Self.preset, other)
                #expect(again == id)
                try await other.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag]) {
                    #expect($0.status == .notModified)
                }
            }
        }
    }

    @Test func namesABuiltInPresetsFrameWithItsImmutableAddress() async throws {
        try await withStudio { client in
            let (location, bytes) = try await client.execute(
                uri: "/v1/presets/aurora/frames/640x360/2.png", method: .get
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-cache")
                return (try #require(response.headers[.contentLocation]), response.bytes)
            }
            let design = try #require(Studio(configuration: .init()).designs.builtIn(named: "aurora"))
            #expect(location == "/v1/designs/\(design.id)/frames/640x360/2.png")
            try await client.execute(uri: location, method: .get) { #expect($0.bytes == bytes) }
        }
    }

    @Test func randomSizesTimesAndDepthsGiveTheLibrarysShownFrame() async throws {
        let preset = try Preset(json: Data(Self.preset.utf8), file: "test")
        var random = SplitMix64(state: 26)
        let cases = (0..<12).map { _ in
            let size = (random.next(in: 4...96), random.next(in: 4...96))
            let time = Double(random.next(in: 0...6000)) / 100
            return (size, time, random.next(in: 0...1) == 0 ? Frame.Depth.eight : .sixteen)
        }
        try await withStudio { client in
            let id = try await Self.post(Self.preset, client)
            for ((width, height), time, depth) in cases {
                let query = depth == .sixteen ? "?depth=16" : ""
                let uri = "/v1/designs/\(id)/frames/\(width)x\(height)/\(time).png\(query)"
                // Shown smaller than 1/4 of its size, the point scale goes below the 0.25 a
                // preset file may hold; the library's keepingLook allows that.
                let expected = try preset.frame(
                    at: time, width: width, height: height, keepingLook: true, depth: depth
                ).pngData()
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.bytes == Array(expected), "\(uri)")
                }
            }
        }
    }

    @Test func showsA4KDesignInThePreviewsSizeAsItLooks() async throws {
        // 640x360 is 1/6 of 3840x2160: a point scale of 1/6, below what a preset file may
        // hold, which the frame route answered 422 before it rendered through keepingLook.
        let design = Self.preset.replacingOccurrences(of: "64x36", with: "3840x2160")
        let preset = try Preset(json: Data(design.utf8), file: "test")
        let expected = try preset.frame(at: 1.5, width: 640, height: 360, keepingLook: true).pngData()
        try await withStudio { client in
            let id = try await Self.post(design, client)
            try await client.execute(uri: "/v1/designs/\(id)/frames/640x360/1.5.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.bytes == Array(expected))
            }
        }
    }

    @Test func refusesMalformedAndOutOfLimitAddresses() async throws {
        try await withStudio(.changed { $0.maxPixels = 100 * 100 }) { client in
            let id = try await Self.post(Self.preset, client)
            let base = "/v1/designs/\(id)/frames"
            for path in [
                "64/1.png", "64x/1.png", "x36/1.png", "64x36x2/1.png", "-64x36/1.png", "64x36/1.gif",
                "64x36/1", "64x36/abc.png", "64x36/1e3.png", "64x36/.5.png", "64x36/1..png", "0x36/1.png",
                "64x36/1.png?depth=12", "64x36/1.webp?depth=16", "64x36/1.PNG",
            ] {
                try await client.execute(uri: "\(base)/\(path)", method: .get) {
                    try $0.expectProblem(.badRequest, slug: "bad-request")
                }
            }
            for path in ["101x100/1.png", "100000x100000/1.png", "64x36/86400.5.png", "64x36/-1.png"] {
                try await client.execute(uri: "\(base)/\(path)", method: .get) {
                    try $0.expectProblem(.unprocessableContent, slug: "limit-exceeded")
                }
            }
            try await client.execute(
                uri: "/v1/designs/\(String(repeating: "a", count: 64))/frames/8x8/1.png", method: .get
            ) {
                try $0.expectProblem(.notFound)
            }
            try await client.execute(uri: "/v1/presets/nope/frames/8x8/1.png", method: .get) {
                try $0.expectProblem(.notFound)
            }
        }
    }
}

@Suite struct StillFormatTests {
    @Test func servesWebPAndAVIFAsTheLibraryEncodesThem() async throws {
        let text = ##"{"colors": ["#f43f5e", "#3b82f6"], "size": "96x64", "seed": 4}"##
        let preset = try Preset(json: Data(text.utf8), file: "test")
        try await withStudio { client in
            let id = try await FrameTests.post(text, client)
            try await client.execute(uri: "/v1/designs/\(id)/frames/96x64/2.webp", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/webp")
                let webp = try preset.webpData(at: 2)
                #expect(response.bytes == Array(webp))
            }
            try await client.execute(uri: "/v1/designs/\(id)/frames/96x64/2.avif", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/avif")
                let avif = try preset.avifData(at: 2)
                #expect(response.bytes == Array(avif))
            }
            for size in ["96x63", "62x64"] {
                try await client.execute(uri: "/v1/designs/\(id)/frames/\(size)/2.avif", method: .get) {
                    try $0.expectProblem(.unprocessableContent)
                }
            }
        }
    }
}
