import Hummingbird

extension Studio {
    /// Adds the `/v1/jobs` routes, which find designs in this studio's registry.
    ///
    /// - Parameter router: the `/v1` group.
    func addJobRoutes(to router: some RouterMethods<StudioContext>) {
        let designs = designs
        JobRoutes(
            jobs: jobs, body: { try await self.jsonBody(of: $0, context: $1) },
            client: { self.client(of: $0, context: $1) }, design: { designs.design(id: $0)?.preset },
            deliveryTimeout: configuration.connections.sendTimeout
        ).add(to: router)
    }
}
