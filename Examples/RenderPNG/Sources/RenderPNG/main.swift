import FluidGradientIO

// Renders the built-in preset "aurora" at 2 seconds as a 1280x720 PNG file.
let path = CommandLine.arguments.dropFirst().first ?? "aurora.png"
let preset = try Preset(builtIn: "aurora")
let summary = try await preset.write(to: .png(path: path), frames: .instant(2), width: 1280, height: 720)
print("wrote \(path): \(summary.width)x\(summary.height)")
