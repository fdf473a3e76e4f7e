// swift-tools-version:6.0
import PackageDescription

// FluidGradient used as a library, from this repository by path. Another project would
// depend on the repository's URL instead.
let package = Package(
    name: "RenderPNG",
    // Named, so that the products are found whatever the checkout's directory is called.
    dependencies: [.package(name: "FluidGradient", path: "../..")],
    targets: [
        .executableTarget(
            name: "RenderPNG",
            dependencies: [.product(name: "FluidGradientIO", package: "FluidGradient")]
        )
    ]
)
