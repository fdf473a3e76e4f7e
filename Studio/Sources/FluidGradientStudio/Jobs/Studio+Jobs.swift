import Hummingbird

extension Studio {
    /// Adds the `/v1/jobs` routes, which find designs in this studio's registry.
    ///
    /// - Parameter router: the `/v1` group.
    func addJobRoutes(to router: some RouterMethods<StudioContext>) {
        let designs = designs
        JobRoutes(jobs: jobs, maxBodyBytes: configuration.maxBodyBytes) { designs.design(id: $0)?.preset }
            .add(to: router)
    }
}
