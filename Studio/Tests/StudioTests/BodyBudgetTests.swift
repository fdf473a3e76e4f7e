import FluidGradientStudio
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import Testing

/// The bodies being read are held to a budget of bytes, one client to half of it, and the
/// errors of reading a body are a client's mistakes: 400 or 413, never 500.
@Suite struct BodyBudgetTests {
    @Test func holdsEachClientToHalfTheBudgetAndEveryoneToAll() throws {
        let budget = ByteBudget(name: "bodies", capacity: 1000, minimumShare: 100)
        #expect(budget.perClient == 500)
        try budget.take(400, for: "a", retryAfter: 1)
        #expect(throws: Problem.self) { try budget.take(101, for: "a", retryAfter: 1) }
        try budget.take(100, for: "a", retryAfter: 1)
        try budget.take(450, for: "b", retryAfter: 1)
        let refusal = #expect(throws: Problem.self) { try budget.take(51, for: "c", retryAfter: 1) }
        #expect(refusal?.status == .serviceUnavailable && refusal?.headers[.retryAfter] == "1")
        budget.give(500, for: "a")
        try budget.take(500, for: "c", retryAfter: 1)
        #expect(budget.used == 950)
        // A budget smaller than two bodies still lets one client take one whole body.
        #expect(ByteBudget(name: "uploads", capacity: 1000, minimumShare: 800).perClient == 800)
    }

    /// A JSON body that does not fit in what the budget has left is 503 with Retry-After,
    /// and the connection closes (its body may still be coming).
    @Test func answersABodyOverTheBudgetWith503() async throws {
        let studio = Studio(configuration: .changed { $0.bodyBytes = 1000 })
        try await withStudio(studio) { client in
            try studio.bodies.take(800, for: "other", retryAfter: 1)
            let body = ByteBuffer(
                string: #"{"colors": ["red", "blue"], "description": "\#(String(repeating: "x", count: 300))"}"#)
            try await client.execute(
                uri: "/v1/designs", method: .post, headers: [.contentType: "application/json"], body: body
            ) { response in
                try response.expectProblem(.serviceUnavailable, slug: "busy")
                #expect(response.headers[.retryAfter] == "1")
            }
            studio.bodies.give(800, for: "other")
            try await client.execute(
                uri: "/v1/designs", method: .post, headers: [.contentType: "application/json"], body: body
            ) { #expect($0.status == .ok) }
            #expect(studio.bodies.used == 0, "a body read is given back")
        }
    }

    /// What reading a body can throw is answered as the client's mistake, with the
    /// connection closed after it.
    @Test func answersTheErrorsOfReadingABodyAsTheClientsMistakes() throws {
        let malformed = Problem.malformedBody(.invalidChunkSize)
        #expect(malformed.status == .badRequest && malformed.headers[.connection] == "close")
        let cut = Problem.bodyCutShort(received: 10)
        #expect(cut.status == .badRequest && cut.detail.contains("after 10 bytes"))
        #expect(Problem.bodyTooLarge(limit: 5).headers[.connection] == "close")
    }
}
