import FluidGradient
import FluidGradientIO
import Foundation

// Renders the built-in preset "aurora" at 2 seconds to a 1280x720 PNG in memory, then writes it.
let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "aurora.png")
guard let preset = Preset.builtIn("aurora") else { fatalError("aurora is a built-in preset") }
let frame = try preset.frame(at: 2.0, width: 1280, height: 720)
let png = try frame.pngData()
try png.write(to: output)
print("wrote \(output.path): \(frame.width)x\(frame.height), \(png.count) bytes")
