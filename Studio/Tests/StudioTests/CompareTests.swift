import FluidGradientIO
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

@Suite struct CompareTests {
    static let png = ImageTests.png, json = ImageTests.json, preset = ImageTests.preset, other = ImageTests.other

    static func frame(_ text: String, at time: Double = 0) throws -> Frame { try ImageTests.frame(text, at: time) }

    @Test func comparesADesignWithAnImageAndWithAnotherDesign() async throws {
        let own = try Self.frame(Self.preset, at: 2)
        let theirs = try Self.frame(Self.other, at: 2)
        try await withStudio { client in
            let design = try await FrameTests.post(Self.preset, client)
            let other = try await FrameTests.post(Self.other, client)
            let image = try await client.execute(
                uri: "/v1/images", method: .post, headers: Self.png, body: ByteBuffer(try own.pngData())
            ) { try #require(try $0.jsonObject()["id"] as? String) }
            let same = ##"{"design": "\##(design)", "target": {"image": "\##(image)"}, "time": 2}"##
            try await client.execute(
                uri: "/v1/compare", method: .post, headers: Self.json, body: ByteBuffer(string: same)
            ) {
                let report = try $0.jsonObject()
                #expect(report["score"] as? Double == 100)
                #expect(report["psnr"] is NSNull)
                #expect(report["largestDifference"] as? Double == 0)
            }
            let pair = ##"{"design": "\##(design)", "target": {"design": "\##(other)"}, "time": 2}"##
            try await client.execute(
                uri: "/v1/compare", method: .post, headers: Self.json, body: ByteBuffer(string: pair)
            ) {
                let report = try $0.jsonObject()
                let expected = try #require(own.difference(from: theirs))
                #expect(report["score"] as? Double == (expected.score * 1e6).rounded() / 1e6)
                #expect(report["meanDeltaE"] as? Double == (expected.meanDeltaE * 1e6).rounded() / 1e6)
                #expect(report["largestDeltaE"] as? Double == (expected.largestDeltaE * 1e6).rounded() / 1e6)
                let url = try #require(report["differenceMap"] as? String)
                let prefix = "data:image/png;base64,"
                #expect(url.hasPrefix(prefix))
                let map = try #require(Data(base64Encoded: String(url.dropFirst(prefix.count))))
                #expect(map == (try expected.map.pngData()))
            }
        }
    }

    @Test func refusesCompareRequestsThatCannotBeMeasured() async throws {
        let png = try Self.frame(Self.preset).pngData()
        try await withStudio { client in
            let design = try await FrameTests.post(Self.preset, client)
            let image = try await client.execute(
                uri: "/v1/images", method: .post, headers: Self.png, body: ByteBuffer(png)
            ) {
                try #require(try $0.jsonObject()["id"] as? String)
            }
            let cases: [(String, HTTPResponse.Status)] = [
                ("{", .badRequest),
                (##"{"design": "\##(design)"}"##, .badRequest),
                (##"{"design": "\##(design)", "target": {}}"##, .badRequest),
                (
                    ##"{"design": "\##(design)", "target": {"image": "\##(image)", "design": "\##(design)"}}"##,
                    .badRequest
                ),
                (##"{"design": "\##(design)", "target": {"image": "\##(image)"}, "width": 10}"##, .badRequest),
                (##"{"design": "\##(design)", "target": {"image": "\##(image)"}, "time": "1"}"##, .badRequest),
                (
                    ##"{"design": "\##(design)", "target": {"image": "\##(image)"}, "width": 10, "height": 10}"##,
                    .unprocessableContent
                ),
                (
                    ##"{"design": "\##(design)", "target": {"image": "\##(image)"}, "time": 90000}"##,
                    .unprocessableContent
                ),
                (##"{"design": "\##(design)", "target": {"image": "0"}}"##, .notFound),
                (##"{"design": "0", "target": {"image": "\##(image)"}}"##, .notFound),
            ]
            for (body, status) in cases {
                try await client.execute(
                    uri: "/v1/compare", method: .post, headers: Self.json, body: ByteBuffer(string: body)
                ) {
                    try $0.expectProblem(status)
                }
            }
        }
    }
}
