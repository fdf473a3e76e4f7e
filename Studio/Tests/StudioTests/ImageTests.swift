import FluidGradientIO
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

@Suite struct ImageTests {
    static let png: HTTPFields = [.contentType: "image/png"]
    static let json: HTTPFields = [.contentType: "application/json"]
    static let preset = ##"{"colors": ["#f43f5e", "#3b82f6", "#facc15"], "size": "48x32", "seed": 5}"##
    static let other = ##"{"colors": ["#22c55e", "#3b82f6"], "size": "48x32", "seed": 6}"##

    static func frame(_ text: String, at time: Double = 0) throws -> Frame {
        try Preset(json: Data(text.utf8), file: "test").frame(at: time)
    }

    @Test func uploadsAPNGUnderItsContentAddress() async throws {
        let png = try Self.frame(Self.preset).pngData()
        try await withStudio { client in
            try await client.execute(uri: "/v1/images", method: .post, headers: Self.png, body: ByteBuffer(png)) {
                let object = try $0.jsonObject()
                let id = try #require(object["id"] as? String)
                #expect(id.count == 64 && id.allSatisfy(\.isHexDigit))
                #expect(object["width"] as? Int == 48 && object["height"] as? Int == 32)
            }
            for bad in [Data("not a png at all, not at all".utf8), png.prefix(60)] {
                try await client.execute(uri: "/v1/images", method: .post, headers: Self.png, body: ByteBuffer(bad)) {
                    try $0.expectProblem(.badRequest, slug: "not-a-png")
                }
            }
        }
    }

    /// Uploads are held to a budget of bytes, one client to half of it: another client's
    /// uploads still go through when one has taken its share, and none when the budget is
    /// spent; the bytes are given back when an upload is done.
    @Test func holdsUploadsToTheirBudgetAndEachClientToHalf() async throws {
        let png = try Self.frame(Self.preset).pngData()
        let studio = Studio(
            configuration: .changed {
                $0.maxImageBytes = 4096
                $0.uploadBytes = 16384
                $0.clientAddressHeader = "X-Client"
            })
        try await withStudio(studio) { client in
            func upload(
                _ uri: String, as name: String, _ check: @escaping @Sendable (TestResponse) throws -> Void
            ) async throws {
                var headers = Self.png
                headers[.init("X-Client")!] = name
                try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(png)) {
                    try check($0)
                }
            }
            // As by uploads of "a" still being read: its half of the budget.
            try studio.uploads.take(8192, for: "a", retryAfter: 1)
            for uri in ["/v1/images", "/v1/palette"] {
                try await upload(uri, as: "a") {
                    try $0.expectProblem(.serviceUnavailable, slug: "busy")
                    #expect($0.headers[.retryAfter] != nil)
                }
                try await upload(uri, as: "b") { #expect($0.status == .ok) }
            }
            try studio.uploads.take(8192, for: "c", retryAfter: 1)
            try await upload("/v1/images", as: "b") { try $0.expectProblem(.serviceUnavailable, slug: "busy") }
            studio.uploads.give(8192, for: "a")
            try await upload("/v1/images", as: "b") { #expect($0.status == .ok) }
            #expect(studio.uploads.used == 8192, "each upload gives its bytes back")
        }
    }

    @Test func refusesImagesOverTheByteAndPixelLimits() async throws {
        let png = try Self.frame(Self.preset).pngData()
        try await withStudio(.changed { $0.maxImageBytes = png.count - 1 }) { client in
            _ = try await client.execute(uri: "/v1/images", method: .post, headers: Self.png, body: ByteBuffer(png)) {
                try $0.expectProblem(.contentTooLarge, slug: "body-too-large")
            }
        }
        try await withStudio(.changed { $0.maxPixels = 48 * 32 - 1 }) { client in
            for uri in ["/v1/images", "/v1/palette"] {
                try await client.execute(uri: uri, method: .post, headers: Self.png, body: ByteBuffer(png)) {
                    try $0.expectProblem(.unprocessableContent)
                }
            }
        }
    }

    @Test func takesAnImagesPaletteAsTheLibraryDoes() async throws {
        let frame = try Self.frame(Self.preset, at: 1)
        let png = try frame.pngData()
        try await withStudio { client in
            for count in [nil, 1, 3, 16] {
                let query = count.map { "?count=\($0)" } ?? ""
                try await client.execute(
                    uri: "/v1/palette\(query)", method: .post, headers: Self.png, body: ByteBuffer(png)
                ) {
                    let colors = try $0.jsonObject()["colors"] as? [String]
                    let expected = try frame.palette(count: count ?? 5).map(\.description)
                    #expect(colors == expected)
                }
            }
            try await client.execute(
                uri: "/v1/palette?count=17", method: .post, headers: Self.png, body: ByteBuffer(png)
            ) {
                try $0.expectProblem(.unprocessableContent)
            }
            try await client.execute(
                uri: "/v1/palette?count=x", method: .post, headers: Self.png, body: ByteBuffer(png)
            ) {
                try $0.expectProblem(.badRequest)
            }
        }
    }
}

@Suite struct ImageHeaderTests {
    @Test func refusesAHeaderWhosePixelsOverflowAsOverTheLimit() async throws {
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        try await withStudio { client in
            _ = try await client.execute(
                uri: "/v1/images", method: .post, headers: ImageTests.png, body: ByteBuffer(bytes: png)
            ) { try $0.expectProblem(.unprocessableContent) }
        }
    }
}
