import Hummingbird

/// Lets a `/v1` request through only with `Authorization: Bearer <token>`; the page itself
/// (`/`, its files) is public, since it asks for the token. Answers 401 otherwise.
struct BearerAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token's bytes.
    let token: [UInt8]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let path = request.uri.path
        guard path == "/v1" || path.hasPrefix("/v1/") else { return try await next(request, context) }
        let prefix = "Bearer "
        guard let header = request.headers[.authorization], header.hasPrefix(prefix),
            Self.constantTimeEqual(Array(header.utf8.dropFirst(prefix.utf8.count)), token)
        else {
            var problem = Problem(
                .unauthorized, "unauthorized", title: "A bearer token is needed",
                detail: "Send the server's token as 'Authorization: Bearer <token>'.")
            problem.headers[.wwwAuthenticate] = "Bearer"
            throw problem
        }
        return try await next(request, context)
    }

    /// Whether `a` equals `b`, taking the same time wherever they differ (only the length
    /// of the token can show).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
