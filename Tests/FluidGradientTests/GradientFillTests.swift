import FluidGradient
import Foundation
import Testing

@Suite struct GradientFillTests {
    /// The linear rule worked by hand: end = (cos θ, sin θ) scaled so the larger of
    /// |x|, |y| is 1, in [−1, 1]² with y up; mapped to unit space with y down.
    @Test(arguments: [
        (0.0, SIMD2(0.0, 0.5), SIMD2(1.0, 0.5)),
        (45.0, SIMD2(0.0, 1.0), SIMD2(1.0, 0.0)),
        (90.0, SIMD2(0.5, 1.0), SIMD2(0.5, 0.0)),
        (135.0, SIMD2(1.0, 1.0), SIMD2(0.0, 0.0)),
        (180.0, SIMD2(1.0, 0.5), SIMD2(0.0, 0.5)),
        (270.0, SIMD2(0.5, 0.0), SIMD2(0.5, 1.0)),
        (300.0, SIMD2(0.5 - 0.5 / 3.0.squareRoot(), 0.0), SIMD2(0.5 + 0.5 / 3.0.squareRoot(), 1.0)),
    ])
    func linearEndpointsFollowTheAngleRule(angle: Double, start: SIMD2<Double>, end: SIMD2<Double>) throws {
        let gradient = try Gradient(kind: .linear, angle: angle, stops: [(0, .black), (1, .white)])
        let (s, e) = gradient.linearEndpoints
        #expect(abs(s - start).max() < 1e-12 && abs(e - end).max() < 1e-12, "\(s) → \(e)")
    }

    /// Rendered pixels at the corners and the centre, black → white, against the
    /// projection onto start→end in pixels computed here.
    @Test(arguments: [0.0, 45.0, 90.0, 135.0, 180.0, 270.0, 300.0])
    func linearPixelsAtCornersAndCentre(angle: Double) throws {
        let width = 200, height = 100
        let gradient = try Gradient(kind: .linear, angle: angle, stops: [(0, .black), (1, .white)])
        let image = try Self.background(.gradient(gradient), width: width, height: height)
        let radians = angle * .pi / 180
        let scale = max(abs(cos(radians)), abs(sin(radians)))
        let end = SIMD2(
            (0.5 + 0.5 * cos(radians) / scale) * Double(width), (0.5 - 0.5 * sin(radians) / scale) * Double(height))
        let start = SIMD2(Double(width), Double(height)) - end
        for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width / 2, height / 2)] {
            let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
            let t = ((p - start) * (end - start)).sum() / ((end - start) * (end - start)).sum()
            let expected = min(max(t, 0), 1)
            #expect(
                abs(image.pixel(x, y).x - expected) < 1.0 / 65535 + 1e-6, "angle \(angle) at (\(x), \(y)): t = \(t)")
        }
        // The corner the end point names is white, its opposite black (within half a pixel).
        if angle == 45 {
            #expect(image.pixel(width - 1, 0).x > 0.99 && image.pixel(0, height - 1).x < 0.01)
        }
    }

    @Test func radialAtKnownPixels() throws {
        let gradient = try Gradient(kind: .radial, stops: [(0, .white), (1, .black)])
        let image = try Self.background(.gradient(gradient), width: 101, height: 101)
        #expect(image.pixel(50, 50).x == 1)  // the centre pixel: t = 0
        // t = sqrt(2·(u² + v²)) with u, v the offsets in frame units: corners near 1.
        // Pixel (0, 0) is centred 50/101 of the frame from the centre on both axes.
        let corner = (2 * 2 * (50.0 / 101) * (50.0 / 101)).squareRoot()
        #expect(abs(image.pixel(0, 0).x - (1 - min(corner, 1))) < 2.0 / 65535)
        let edge = (2 * (50.0 / 101) * (50.0 / 101)).squareRoot()
        #expect(abs(image.pixel(100, 50).x - (1 - edge)) < 2.0 / 65535)
    }

    @Test func conicTurnsAnticlockwiseFromTheAngle() throws {
        let gradient = try Gradient(kind: .conic, angle: 0, stops: [(0, .black), (1, .white)])
        let image = try Self.background(.gradient(gradient), width: 101, height: 101)
        // East of centre t ≈ 0 (just above, since the pixel centre is at 0°), north ¼, west ½, south ¾.
        #expect(image.pixel(100, 50).x < 0.01)
        #expect(abs(image.pixel(50, 0).x - 0.25) < 0.002)
        #expect(abs(image.pixel(0, 50).x - 0.5) < 0.002)
        #expect(abs(image.pixel(50, 100).x - 0.75) < 0.002)
        let rotated = try Gradient(kind: .conic, angle: 90, stops: [(0, .black), (1, .white)])
        let turned = try Self.background(.gradient(rotated), width: 101, height: 101)
        #expect(turned.pixel(50, 0).x < 0.01)
        #expect(abs(turned.pixel(0, 50).x - 0.25) < 0.002)
    }

    /// A gradient background under blurred blobs: the production frame against
    /// `P + B·(1 − αP)`, with P the reference blur of the blobs on transparency and B
    /// the background computed here from the angle rule.
    @Test func gradientBackgroundUnderBlobs() throws {
        let width = 160, height = 90
        let gradient = try Gradient(
            kind: .linear, angle: 300,
            stops: [
                (0, try RGBA(parsing: "#0B1026")), (0.6, try RGBA(parsing: "#3B1E54")),
                (1, try RGBA(parsing: "#9B3675")),
            ])
        let scene = randomScene(seed: 21, count: 4, highlights: 1, width: width, height: height)
        let blobs = ReferenceRenderer.render(
            scene, spec: FrameSpec(width: width, height: height, background: .color(.clear)))
        let spec = FrameSpec(width: width, height: height, background: .gradient(gradient))
        var buffer = PixelBuffer(width: width, height: height, format: .rgb48le)
        FrameRenderer(spec: spec, threads: 2).render(scene, dither: false, into: &buffer)
        var largest = 0.0, total = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let (s, e) = gradient.linearEndpoints
                let start = SIMD2(s.x * Double(width), s.y * Double(height)),
                    end = SIMD2(e.x * Double(width), e.y * Double(height))
                let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                let t = ((p - start) * (end - start)).sum() / ((end - start) * (end - start)).sum()
                let background = gradient.color(at: t)
                let expected = blobs[x, y] + background * (1 - blobs[x, y].w)
                let actual = buffer.channels(x: x, y: y)
                for lane in 0..<3 {
                    let difference = abs(Double(actual[lane]) / 65535 - expected[lane]) * 255
                    largest = max(largest, difference)
                    total += difference
                }
            }
        }
        #expect(largest <= 2)
        #expect(total / Double(width * height * 3) <= 0.5)
    }

    struct Image {
        let buffer: PixelBuffer
        func pixel(_ x: Int, _ y: Int) -> SIMD4<Double> {
            let c = buffer.channels(x: x, y: y).map { Double($0) / 65535 }
            return SIMD4(c[0], c[1], c[2], c[3])
        }
    }

    /// The background alone, 16-bit, dither off.
    static func background(_ fill: Fill, width: Int, height: Int) throws -> Image {
        var buffer = PixelBuffer(width: width, height: height, format: .rgba64le)
        FrameRenderer(spec: FrameSpec(width: width, height: height, background: fill)).render(
            Scene(base: []), dither: false, into: &buffer)
        return Image(buffer: buffer)
    }
}
