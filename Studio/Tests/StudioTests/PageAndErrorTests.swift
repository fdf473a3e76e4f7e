import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

@Suite struct PageAndErrorTests {
    @Test func servesThePageWithItsPolicyAndATag() async throws {
        try await withStudio { client in
            let tag = try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'") == true)
                #expect(response.headers[.contentSecurityPolicy]?.contains("img-src 'self' data: blob:") == true)
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(String(buffer: response.body).contains("<html") || String(buffer: response.body).contains("<!"))
                return try #require(response.headers[.eTag])
            }
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
            try await client.execute(uri: "/index.html", method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == tag)
            }
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: "\"other\", W/\(tag)"]) {
                #expect($0.status == .notModified)
            }
        }
    }

    @Test func answersAnUnknownFileOrRouteWith404Problem() async throws {
        try await withStudio { client in
            try await client.execute(uri: "/nothing.js", method: .get) {
                try $0.expectProblem(.notFound, slug: "not-found")
            }
            try await client.execute(uri: "/v1/nothing/here", method: .get) {
                try $0.expectProblem(.notFound, slug: "not-found")
            }
        }
    }

    @Test func answersAWrongMethodWith405AndAllow() async throws {
        try await withStudio { client in
            try await client.execute(uri: "/", method: .post) { response in
                try response.expectProblem(.methodNotAllowed, slug: "method-not-allowed")
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }
    }

    @Test func headIsAnsweredLikeGetWithoutABody() async throws {
        try await withStudio { client in
            try await client.execute(uri: "/", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test func needsTheBearerTokenForTheAPIButNotThePage() async throws {
        try await withStudio(.changed { $0.token = "s3cret" }) { client in
            try await client.execute(uri: "/", method: .get) { #expect($0.status == .ok) }
            for header: HTTPFields in [[:], [.authorization: "Bearer s3cre"], [.authorization: "Basic s3cret"]] {
                try await client.execute(uri: "/v1/presets", method: .get, headers: header) { response in
                    try response.expectProblem(.unauthorized, slug: "unauthorized")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                }
            }
            try await client.execute(uri: "/v1/nothing", method: .get, headers: [.authorization: "Bearer s3cret"]) {
                try $0.expectProblem(.notFound)
            }
            // The router ignores empty segments: none of these may reach the API without the
            // token (the first went through when the check read the path's prefix).
            for uri in ["//v1/presets", "/v1//presets", "///v1/presets", "/%761/presets", "/V1/presets"] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .unauthorized, "\(uri)") }
            }
            try await client.execute(uri: "/studio.js", method: .get) { #expect($0.status == .ok) }
        }
    }

    /// RFC 9110 makes the scheme case-insensitive: `bearer` and `BEARER` are the same, with
    /// one space or more before the token; another scheme, or no space, is not.
    @Test func readsTheBearerSchemeInAnyCase() async throws {
        try await withStudio(.changed { $0.token = "s3cret" }) { client in
            for value in ["bearer s3cret", "BEARER s3cret", "BeArEr  s3cret"] {
                try await client.execute(uri: "/v1/presets", method: .get, headers: [.authorization: value]) {
                    #expect($0.status == .ok, "\(value)")
                }
            }
            for value in ["bearers3cret", "bearer3 s3cret", "Bearer\ts3cret", "Basic s3cret"] {
                try await client.execute(uri: "/v1/presets", method: .get, headers: [.authorization: value]) {
                    #expect($0.status == .unauthorized, "\(value)")
                }
            }
        }
    }
}
