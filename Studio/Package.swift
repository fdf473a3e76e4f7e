// swift-tools-version:6.1
import PackageDescription

// The studio and render service: its own package, so that the render CLI and the libraries
// never build or even resolve NIO (`./run demo` stays quick), and so that it sees only the
// libraries' public API, as any other program embedding them would.
let package = Package(
    name: "FluidGradientStudio",
    products: [
        .executable(name: "fluidgradient-studio", targets: ["fluidgradient-studio"])
    ],
    dependencies: [
        .package(name: "FluidGradient", path: ".."),
        // Without swift-configuration (the default ConfigurationSupport trait): options
        // come from the command line.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Already in the graph through Hummingbird; named for the Service protocol and the
        // Logger type the studio uses directly.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(name: "PageEmbedder"),
        .plugin(name: "EmbedPage", capability: .buildTool(), dependencies: ["PageEmbedder"]),
        .target(
            name: "FluidGradientStudio",
            dependencies: [
                .product(name: "FluidGradientIO", package: "FluidGradient"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Page"],
            plugins: ["EmbedPage"]
        ),
        .executableTarget(
            name: "fluidgradient-studio",
            dependencies: [
                "FluidGradientStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "StudioTests",
            dependencies: [
                "FluidGradientStudio",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
