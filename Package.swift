// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FluidGradient",
    products: [
        .library(name: "FluidGradient", targets: ["FluidGradient"]),
        .library(name: "FluidGradientIO", targets: ["FluidGradientIO"]),
        .library(name: "FluidGradientTesting", targets: ["FluidGradientTesting"]),
        .executable(name: "fluidgradient", targets: ["fluidgradient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .target(name: "CVectorMath"),
        .target(name: "FluidGradient", dependencies: ["CVectorMath"]),
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(name: "CPNGCodec", dependencies: ["CLibPNG"]),
        .systemLibrary(name: "CLibWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .target(name: "CWebPCodec", dependencies: ["CLibWebP"]),
        // libavif (Debian's libavif-dev) is linked by name, not through a pkg-config system
        // library: libavif.pc's -DAVIF_DLL is a flag SwiftPM refuses, with a warning on every
        // build. Its headers and library are in the system's default paths.
        .target(name: "CAVIFCodec", linkerSettings: [.linkedLibrary("avif")]),
        .target(name: "CSignalCleanup"),
        .target(
            name: "FluidGradientIO",
            dependencies: [
                "FluidGradient", "CPNGCodec", "CWebPCodec", "CAVIFCodec", "CSignalCleanup",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            plugins: ["EmbedPresets"]
        ),
        .target(name: "FluidGradientTesting", dependencies: ["FluidGradient", "FluidGradientIO"]),
        .executableTarget(name: "PresetEmbedder"),
        .plugin(name: "EmbedPresets", capability: .buildTool(), dependencies: ["PresetEmbedder"]),
        .executableTarget(
            name: "fluidgradient",
            dependencies: [
                "FluidGradientIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "FluidGradientTests", dependencies: ["FluidGradient"]),
        .testTarget(name: "FluidGradientIOTests", dependencies: ["FluidGradientIO", "FluidGradientTesting"]),
        .testTarget(name: "CommandLineTests", dependencies: ["FluidGradientIO", "FluidGradientTesting"]),
        .testTarget(name: "GoldenTests", dependencies: ["FluidGradientTesting"], exclude: ["__Goldens__"]),
    ]
)
