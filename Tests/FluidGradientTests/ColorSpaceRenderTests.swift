import FluidGradient
import Testing

/// Frames written in sRGB or Display P3 (DESIGN section 13): every colour brought into
/// the frame's space, gamut mapped where it lies outside.
@Suite struct ColorSpaceRenderTests {
    /// A blob covering the frame and a flat background, in each space, 16 bits without
    /// dither: the pixels are the colours as the space writes them. Display P3's red is
    /// itself in a P3 frame and mapped into sRGB's gamut in an sRGB one; an sRGB colour in a
    /// P3 frame is its P3 coordinates.
    @Test(arguments: [
        ("color(display-p3 1 0 0)", ColorSpace.displayP3), ("color(display-p3 1 0 0)", .srgb), ("#E8613C", .displayP3),
        ("oklch(0.9 0.4 150)", .srgb), ("oklch(0.9 0.4 150)", .displayP3),
    ])
    func pixelsAreTheColoursInTheFramesSpace(text: String, space: ColorSpace) throws {
        let color = try RGBA(parsing: text)
        let expected = color.inColorSpace(space)
        var preset = Preset(colors: [color])
        preset.blobs = [Blob(color: color, center: SIMD2(0.5, 0.5), radius: SIMD2(4, 4))]
        (preset.width, preset.height, preset.colorSpace, preset.speed) = (40, 24, space, 0)
        preset.background = .color(color)
        let frame = try preset.frame(at: 0, depth: .sixteen, dither: false)
        let samples = frame.bytes
        for channel in 0..<3 {
            let value = Double(Int(samples[2 * channel]) | Int(samples[2 * channel + 1]) << 8) / 65535
            #expect(abs(value - [expected.red, expected.green, expected.blue][channel]) < 1 / 65535)
        }
        if space == .displayP3, color.isInside(.displayP3) {
            // The P3 coordinates themselves, by an independent road: the matrices.
            let p3 = ColorMath.encoded(
                ColorMath.linearSRGBToLinearP3(ColorMath.linear(SIMD3(color.red, color.green, color.blue))))
            #expect(abs(expected.red - p3.x) < 1e-9 && abs(expected.blue - p3.z) < 1e-9)
        }
    }

    /// The default, sRGB, leaves sRGB colours as they are, bit for bit: a frame of a
    /// preset that names sRGB is the frame it was (the goldens hold the built-in presets).
    @Test func srgbFramesOfSRGBColoursAreUntouched() throws {
        var preset = try PresetFixtures.builtIn("aurora")
        (preset.width, preset.height) = (64, 36)
        var explicit = preset
        explicit.colorSpace = .srgb
        #expect(try preset.frame(at: 1).bytes == explicit.frame(at: 1).bytes)
        var p3 = preset
        p3.colorSpace = .displayP3
        #expect(try preset.frame(at: 1).bytes != p3.frame(at: 1).bytes)
    }
}
