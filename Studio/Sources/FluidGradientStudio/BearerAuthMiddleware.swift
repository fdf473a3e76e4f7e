import Hummingbird

/// Lets a request through only with `Authorization: Bearer <token>` (the scheme in any case,
/// as RFC 9110 makes it, and one or more spaces before the token), but for the page itself
/// (`/` and its files), which is public since it asks for the token. Answers 401 otherwise.
struct BearerAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token's bytes.
    let token: [UInt8]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if Self.isPagePath(request.uri.path) { return try await next(request, context) }
        guard let header = request.headers[.authorization], let credentials = Self.bearerCredentials(header),
            Self.constantTimeEqual(credentials, token)
        else {
            var problem = Problem(
                .unauthorized, "unauthorized", title: "A bearer token is needed",
                detail: "Send the server's token as 'Authorization: Bearer <token>'.")
            problem.headers[.wwwAuthenticate] = "Bearer"
            throw problem
        }
        return try await next(request, context)
    }

    /// Whether `path` can reach only the page: `/`, or one name at the root that is not `v1`
    /// however it is written. Anything else needs the token, so that no spelling of an API
    /// path that the router accepts (`//v1/presets`, `/%761/presets`) passes without it.
    static func isPagePath(_ path: String) -> Bool {
        let segments = path.split(separator: "/")
        guard segments.count <= 1 else { return false }
        guard let name = segments.first.map(String.init) else { return true }
        return (name.removingPercentEncoding ?? name).lowercased() != "v1"
    }

    /// The token of an `Authorization` value whose scheme is `Bearer` in any case, after one
    /// or more spaces; nil for another scheme.
    static func bearerCredentials(_ header: String) -> [UInt8]? {
        let bytes = Array(header.utf8), scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }), bytes[scheme.count] == UInt8(ascii: " ")
        else { return nil }
        return Array(bytes[scheme.count...].drop { $0 == UInt8(ascii: " ") })
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
