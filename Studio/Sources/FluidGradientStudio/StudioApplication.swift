import Hummingbird
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
    public static func application(
        configuration: StudioConfiguration, logger: Logger? = nil
    ) -> some ApplicationProtocol {
        Studio(configuration: configuration).application(logger: logger)
    }

    /// The HTTP application serving this studio's state (see
    /// ``application(configuration:logger:)``).
    ///
    /// - Parameter logger: where the server logs; a default logger when nil.
    /// - Returns: the application.
    public func application(logger: Logger? = nil) -> some ApplicationProtocol {
        let studio = self
        let router = StudioRouter(router: Router(context: StudioContext.self, options: .autoGenerateHeadEndpoints))
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ProblemMiddleware())
        if let token = configuration.token { router.add(middleware: BearerAuthMiddleware(token: Array(token.utf8))) }
        PageRoutes(directory: configuration.pageDirectory).add(to: router)
        let v1 = router.group("v1")
        studio.addPresetRoutes(to: v1)
        studio.addFrameRoutes(to: v1)
        studio.addImageRoutes(to: v1)
        studio.addCompareRoutes(to: v1)
        studio.addJobRoutes(to: v1)
        let services: [any Service] = [StudioLifecycle(studio: studio)]
        router.finish()
        return Application(
            router: router.router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            services: services, logger: logger)
    }
}
