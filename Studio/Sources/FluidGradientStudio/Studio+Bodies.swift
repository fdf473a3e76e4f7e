import Foundation
import Hummingbird

extension Studio {
    /// The JSON body of `request`, read within the JSON body budget (held while it is read)
    /// and refused when an object holds a key twice.
    ///
    /// - Throws: 415 for another type; 413, 503 or 400 from reading it
    ///   (``Request/collectBody(limit:hold:)``); 400 for a duplicate key.
    func jsonBody(of request: Request, context: StudioContext) async throws -> Data {
        try request.requireContentType("application/json")
        let data = try await bodies.holding(
            for: client(of: request, context: context), retryAfter: configuration.retryAfterSeconds
        ) { hold in
            Data(buffer: try await request.collectBody(limit: configuration.maxBodyBytes, hold: hold))
        }
        if let key = JSONDuplicateKeys.first(in: data) {
            throw Problem.badRequest("The body's JSON has the key \"\(key.prefix(64))\" twice in one object.")
        }
        return data
    }

    /// Runs `work` with the PNG body of `request`, read and worked on within the upload
    /// budget (held until `work` returns: a decode may wait for a render thread).
    ///
    /// - Throws: 415 for another type; 413, 503 or 400 from reading it; what `work` throws.
    func withImageBody(
        of request: Request, context: StudioContext, _ work: (Data) async throws -> Response
    ) async throws -> Response {
        try request.requireContentType("image/png")
        return try await uploads.holding(
            for: client(of: request, context: context), retryAfter: configuration.retryAfterSeconds
        ) { hold in
            try await work(Data(buffer: try await request.collectBody(limit: configuration.maxImageBytes, hold: hold)))
        }
    }
}
