import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

extension Studio {
    /// The HTTP application: the page at `/`, the API under `/v1`, the middleware that
    /// answers errors as problems and checks the token, and the services that stop with
    /// the server.
    ///
    /// - Parameters:
    ///   - configuration: the address, the token and the limits.
    ///   - logger: where the server logs; a default logger when nil.
    /// - Returns: the application, ready to run (`runService()` stops it on SIGTERM/SIGINT).
    package static func application(
        configuration: StudioConfiguration, logger: Logger? = nil
    ) -> some ApplicationProtocol {
        Studio(configuration: configuration).application(logger: logger)
    }

    /// The HTTP application serving this studio's state (see
    /// ``application(configuration:logger:)``).
    ///
    /// - Parameter logger: where the server logs; a default logger when nil.
    /// - Returns: the application.
    package func application(logger: Logger? = nil) -> some ApplicationProtocol {
        let connections = connections, retryAfter = configuration.retryAfterSeconds
        // Heads of at most 32 KiB (a field of at most 16 KiB): a long token fits, a flood
        // of headers is 400 before it is held.
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100)
        let server = HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, decoder: decoder, registry: connections, retryAfter: retryAfter)
        }
        return Application(
            router: makeRouter().router, server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            services: [StudioLifecycle(studio: self)] as [any Service], logger: logger)
    }

    /// Every route the application answers: its path pattern (such as
    /// `/v1/designs/{id}`) and methods, HEAD left out (it is answered wherever GET is).
    package var routeTable: [(path: String, methods: [String])] { makeRouter().routes }

    /// The router with the middleware and every route group.
    private func makeRouter() -> StudioRouter {
        let router = StudioRouter(router: Router(context: StudioContext.self, options: .autoGenerateHeadEndpoints))
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ProblemMiddleware())
        if let token = configuration.token { router.add(middleware: BearerAuthMiddleware(token: Array(token.utf8))) }
        PageRoutes(directory: configuration.pageDirectory).add(to: router)
        let v1 = router.group("v1")
        addPresetRoutes(to: v1)
        addFrameRoutes(to: v1)
        addImageRoutes(to: v1)
        addCompareRoutes(to: v1)
        addJobRoutes(to: v1)
        router.finish()
        return router
    }
}
