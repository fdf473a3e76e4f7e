import FluidGradient
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

/// Posted designs are held to a budget of bytes, not a count, and to the limits a job of
/// them would be held to.
@Suite struct DesignBudgetTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    /// 40 designs with 100,000-character descriptions into a 2 MiB budget: the registry keeps
    /// what fits (each counts its JSON twice), the latest kept and the first dropped (404).
    @Test func keepsThePostedDesignsWithinTheirBytes() async throws {
        let studio = Studio(configuration: .changed { $0.designBytes = 2 << 20 })
        let description = String(repeating: "d", count: 100_000)
        try await withStudio(studio) { client in
            var ids: [String] = []
            for seed in 0..<40 {
                let body = ##"{"colors": ["#fff", "#000"], "seed": \##(seed), "description": "\##(description)"}"##
                try await client.execute(
                    uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: body)
                ) { ids.append(try #require(try $0.jsonObject()["id"] as? String)) }
                let usage = studio.designs.usage
                #expect(usage.bytes <= 2 << 20, "after \(seed + 1) designs: \(usage)")
            }
            let usage = studio.designs.usage
            #expect((8...10).contains(usage.count), "\(usage)")
            try await client.execute(uri: "/v1/designs/\(ids[39])", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/designs/\(ids[0])", method: .get) { try $0.expectProblem(.notFound) }
        }
    }

    /// A design a job could not render is refused when it is posted, with the jobs' 422.
    @Test func refusesADesignOverTheSizeAndFrameLimitsOfJobs() async throws {
        let cases: [(String, String)] = [
            (##"{"colors": ["#fff", "#000"], "size": "3841x2160"}"##, "too-many-pixels"),
            (##"{"colors": ["#fff", "#000"], "fps": 60, "duration": 60.02}"##, "too-many-frames"),
        ]
        try await withStudio { client in
            for (body, slug) in cases {
                try await client.execute(
                    uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: body)
                ) { try $0.expectProblem(.unprocessableContent, slug: slug) }
            }
            let largest = ##"{"colors": ["#fff", "#000"], "size": "3840x2160", "fps": 60, "duration": 60}"##
            try await client.execute(
                uri: "/v1/designs", method: .post, headers: Self.json, body: ByteBuffer(string: largest)
            ) { #expect($0.status == .ok) }
        }
    }
}
