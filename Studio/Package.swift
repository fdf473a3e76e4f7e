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
        // Already in the graph through Hummingbird; named for the connection limits, which
        // sit in the NIO pipeline under Hummingbird's HTTP/1.1 channel, and for the tests'
        // loopback server and client.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0", traits: []),
    ],
    targets: [
        .executableTarget(name: "PageEmbedder"),
        // glibc's allocator settings (malloc.h), which the Glibc module leaves out.
        .target(name: "CMallocTuning"),
        .plugin(name: "EmbedPage", capability: .buildTool(), dependencies: ["PageEmbedder"]),
        .target(
            name: "FluidGradientStudio",
            dependencies: [
                "CMallocTuning",
                .product(name: "FluidGradientIO", package: "FluidGradient"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
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
                // Not HummingbirdTesting: its AsyncHTTPClient brings NIOSSL, swift-crypto and
                // two copies of BoringSSL into the build; the tests talk to a loopback server
                // through a small client of their own (Tests/StudioTests/Loopback).
                "FluidGradientStudio",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
