import FluidGradient
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

/// `POST /v1/compare`'s `match`: how close two designs look, whatever their blobs' places.
@Suite struct LookMatchTests {
    static let json: HTTPFields = [.contentType: "application/json"]
    /// A teal and violet design on navy: the target of issue 38's complaint.
    static let tealViolet =
        ##"{"colors": ["#14B8A6", "#7C3AED", "#0D9488", "#8B5CF6"], "background": "#0B1030", "seed": 123}"##
    /// Coral, rose and salmon on the same navy.
    static let coral = ##"{"colors": ["#F08080", "#CD5C5C", "#FF7F50"], "background": "#0B1030", "seed": 5}"##

    /// The report of `design` against the design `target`, at 320x180 and `time`.
    static func compare(
        _ design: String, with target: String, at time: Double, _ client: any TestClientProtocol
    ) async throws -> [String: Any] {
        let body =
            ##"{"design": "\##(design)", "target": {"design": "\##(target)"}, "time": \##(time), "##
            + ##""width": 320, "height": 180}"##
        return try await client.execute(
            uri: "/v1/compare", method: .post, headers: Self.json, body: ByteBuffer(string: body)
        ) { try $0.jsonObject() }
    }

    static func match(_ report: [String: Any]) throws -> [String: Double] {
        try #require(report["match"] as? [String: Double])
    }

    @Test func aTealDesignMatchesATealTargetFarBetterThanACoralOne() async throws {
        try await withStudio { client in
            let target = try await FrameTests.post(Self.tealViolet, client)
            let coral = try await FrameTests.post(Self.coral, client)
            let aurora = try Preset(builtIn: "aurora")
            let auroraID = try await FrameTests.post(aurora.jsonText, client)
            let teal = try await Self.compare(auroraID, with: target, at: 2, client)
            let red = try await Self.compare(coral, with: target, at: 2, client)
            let (tealScore, redScore) = (try Self.match(teal)["score"]!, try Self.match(red)["score"]!)
            // Measured 61.3 and 31.6: the teal design far above the coral one.
            #expect(tealScore - redScore >= 25, "aurora \(tealScore), coral \(redScore)")
            // The control: pixel by pixel (compare's score) the coral design ranks above aurora.
            let (pixelTeal, pixelRed) = (try #require(teal["score"] as? Double), try #require(red["score"] as? Double))
            #expect(pixelTeal < pixelRed, "compare's score: aurora \(pixelTeal), coral \(pixelRed)")
        }
    }

    @Test func aDesignMatchesItselfExactlyAndAnyPairBothWays() async throws {
        var random = SplitMix64(state: 38)
        // Six colours for each of the four pairs, drawn before the server's closure.
        let colours = (0..<4 * 6).map { _ in String(format: "\"#%06X\"", random.next() & 0xFF_FFFF) }
        try await withStudio { client in
            for pair in 0..<4 {
                let c = Array(colours[pair * 6..<pair * 6 + 6])
                let a = try await FrameTests.post(
                    "{\"colors\": [\(c[0]), \(c[1])], \"background\": \(c[2]), \"size\": \"64x36\"}", client)
                let b = try await FrameTests.post(
                    "{\"colors\": [\(c[3]), \(c[4]), \(c[5])], \"size\": \"64x36\"}", client)
                let same = try Self.match(try await Self.compare(a, with: a, at: 1, client))
                #expect(same == ["score": 100, "colours": 0, "layout": 0])
                let forth = try Self.match(try await Self.compare(a, with: b, at: 1, client))
                let back = try Self.match(try await Self.compare(b, with: a, at: 1, client))
                #expect(forth == back)
                let score = try #require(forth["score"])
                #expect(score > 0 && score < 100)
            }
        }
    }
}
