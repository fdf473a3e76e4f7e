import FluidGradient
import Foundation
import Testing

/// DESIGN section 5: the blur's size, its kernel and the three edge modes.
@Suite struct BlurTests {
    @Test(arguments: [
        (1920, 1080, 0.75, 1.0, pow(1080.0, 0.75)),
        (1080, 1920, 0.75, 1.0, pow(1080.0, 0.75)),
        (512, 512, 0.5, 1.0, pow(512.0, 0.5)),
        (1920, 1080, 0.75, 2.0, 2 * pow(540.0, 0.75)),
        (640, 360, 0.0, 1.0, 1.0),
        (640, 360, 0.0, 2.0, 2.0),
    ])
    func sigmaFollowsTheFormula(width: Int, height: Int, exponent: Double, scale: Double, expected: Double) {
        let sigma = FrameSpec(width: width, height: height, blurExponent: exponent, pointScale: scale).sigma
        #expect(abs(sigma - expected) < 1e-9)
    }

    @Test func sigmaAt1080pIsTheOnesFFmpegBaselineUses() {
        #expect(abs(FrameSpec(width: 1920, height: 1080).sigma - 188.4) < 0.05)
    }

    /// A blob that covers one pixel centre is an impulse; the reference blur turns it into
    /// the sampled, normalised Gaussian `exp(−(dx² + dy²) / 2σ²)`.
    @Test func impulseResponseIsASampledGaussian() {
        let size = 41, sigma = 3.0
        let exponent = log(sigma) / log(Double(size))
        let spec = FrameSpec(width: size, height: size, blurExponent: exponent, background: .color(.clear))
        #expect(abs(spec.sigma - sigma) < 1e-12)
        let impulse = Blob(color: .white, center: SIMD2(repeating: 20.5 / 41), radius: SIMD2(repeating: 0.4 / 41))
        let scene = Scene(base: [impulse])
        let reference = ReferenceRenderer.render(scene, spec: spec)

        // The reference reaches ⌈5σ⌉ pixels (σ here is 3 within rounding, so 15 or 16).
        let radius = Int((5 * spec.sigma).rounded(.up))
        let norm = (-radius...radius).reduce(0.0) { $0 + exp(-Double($1 * $1) / (2 * sigma * sigma)) }
        var largest = 0.0
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x - 20), dy = Double(y - 20)
                let inReach = abs(x - 20) <= radius && abs(y - 20) <= radius
                let expected = inReach ? exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)) / (norm * norm) : 0
                largest = max(largest, abs(reference[x, y].w - expected))
            }
        }
        #expect(largest < 1e-12)

        // The production path at this σ works at full resolution with a 4σ kernel:
        // within 16-bit quantisation and the 4σ truncation (tail weight < 10⁻⁴).
        var buffer = PixelBuffer(width: size, height: size, format: .rgba64le)
        FrameRenderer(spec: spec).render(scene, dither: false, into: &buffer)
        var fastLargest = 0.0
        for y in 0..<size {
            for x in 0..<size {
                fastLargest = max(fastLargest, abs(Double(buffer.channels(x: x, y: y)[3]) / 65535 - reference[x, y].w))
            }
        }
        #expect(fastLargest < 1e-4)
    }

    /// The working grid's blur of a single cell is the outer product of its kernels.
    @Test func gridBlurImpulseIsTheKernelOuterProduct() {
        let spec = FrameSpec(width: 320, height: 180)
        let grid = WorkingGrid(spec: spec)
        let h = grid.horizontal, v = grid.vertical
        // Whole cells tile the frame (the edge cells reach beyond it), at 2 or more cells per σ.
        #expect(abs(h.cellSize * Double(h.cells - 1) - 320) < 1e-9)
        #expect(abs(v.cellSize * Double(v.cells - 1) - 180) < 1e-9)
        #expect(spec.sigma / h.cellSize >= 2 && spec.sigma / v.cellSize >= 2)
        var values = [SIMD4<Float>](repeating: .zero, count: grid.gridWidth * grid.gridHeight)
        let cx = h.margin + 3, cy = v.margin + 2
        values[cy * grid.gridWidth + cx] = SIMD4(1, 2, 3, 1)
        var scratch = [SIMD4<Float>](repeating: .zero, count: grid.gridHeight * grid.blurredWidth)
        var blurred = [SIMD4<Float>](repeating: .zero, count: grid.blurredWidth * grid.blurredHeight)
        let kernels = (h.kernel, v.kernel)
        values.withUnsafeBufferPointer { values in
            scratch.withUnsafeMutableBufferPointer { scratch in
                blurred.withUnsafeMutableBufferPointer { blurred in
                    grid.blur(values, kernels: kernels, scratch: scratch, into: blurred, threads: 2)
                }
            }
        }
        #expect(abs(kernels.0.reduce(0, +) - 1) < 1e-6)
        for row in 0..<grid.blurredHeight {
            for column in 0..<grid.blurredWidth {
                // Kept cell (column + firstKept, row + firstKept) lies (dx, dy) cells from the impulse.
                let dx = column + h.firstKept + h.margin - cx, dy = row + v.firstKept + v.margin - cy
                var expected: Float = 0
                if abs(dx) <= h.radius, abs(dy) <= v.radius {
                    expected = kernels.0[dx + h.radius] * kernels.1[dy + v.radius]
                }
                let value = blurred[row * grid.blurredWidth + column]
                #expect(abs(value.x - expected) < 1e-7)
                #expect(abs(value.z - 3 * expected) < 1e-6)
            }
        }
    }

    /// Each axis's grid σ, cell box and bilinear allowance add up to σ² (WorkingGrid's contract).
    @Test(arguments: [(1920, 1080, 0.75), (1080, 1920, 0.5), (301, 97, 0.9), (64, 64, 0.3)])
    func gridVariancesAddUpToSigmaSquared(width: Int, height: Int, exponent: Double) {
        let spec = FrameSpec(width: width, height: height, blurExponent: exponent)
        let grid = WorkingGrid(spec: spec)
        for axis in [grid.horizontal, grid.vertical] {
            let k = axis.cellSize
            let total = axis.sigma * axis.sigma * k * k + (k > 1 ? k * k / 12 + (k / 2) * (k / 2) / 8 : 0)
            #expect(abs(total - spec.sigma * spec.sigma) < 1e-6 * spec.sigma * spec.sigma)
            #expect(k == 1 || axis.sigma >= WorkingGrid.targetSigmaInCells - 0.25)
        }
    }

    /// A large opaque blob centred on the top-left corner of a 64×64 frame, σ = 4:
    /// everything within the blur's reach of the frame lies inside it (d ≤ 0.9).
    static func cornerBlob(edges: EdgeMode) -> (FloatImage, FrameSpec, Scene) {
        let spec = FrameSpec(
            width: 64, height: 64, blurExponent: log(4) / log(64), edges: edges, background: .color(.clear))
        let blob = Blob(color: .white, center: SIMD2(0, 0), radius: SIMD2(2, 2))
        let scene = Scene(base: [blob])
        return (ReferenceRenderer.render(scene, spec: spec), spec, scene)
    }

    @Test func bleedSeesTheBlobBeyondTheFrame() {
        let (image, _, _) = Self.cornerBlob(edges: .bleed)
        // Everything within 5σ of the corner is inside the blob, beyond the frame too.
        #expect(abs(image[0, 0].w - 1) < 1e-12)
        #expect(abs(image[10, 0].w - 1) < 1e-12)
    }

    @Test func transparentFadesAtTheBorders() {
        let (image, _, _) = Self.cornerBlob(edges: .transparent)
        let (_, spec, _) = Self.cornerBlob(edges: .transparent)
        let radius = Int((5 * spec.sigma).rounded(.up))
        let kernel = ReferenceRenderer.gaussianKernel(sigma: spec.sigma, radius: radius)
        // Only the kernel's inner half (and the centre tap) falls inside the frame.
        let inside = kernel[radius...].reduce(0, +)
        #expect(abs(image[0, 0].w - inside * inside) < 1e-12)
        #expect(abs(image[0, 30].w - inside) < 1e-9)
        #expect(abs(image[25, 25].w - 1) < 1e-9)
    }

    @Test func clampRepeatsTheEdgePixels() {
        let (image, _, _) = Self.cornerBlob(edges: .clamp)
        #expect(abs(image[0, 0].w - 1) < 1e-12)
        // A blob that covers the left border but ends 1.6 px beyond it: bleed sees it
        // end, clamp repeats the covered border column outwards, so clamp is brighter there.
        let spec = FrameSpec(
            width: 64, height: 64, blurExponent: log(4) / log(64), edges: .clamp, background: .color(.clear))
        let scene = Scene(base: [Blob(color: .white, center: SIMD2(0.1, 0.5), radius: SIMD2(0.125, 0.125))])
        let clamped = ReferenceRenderer.render(scene, spec: spec)
        var bleedSpec = spec
        bleedSpec.edges = .bleed
        let bled = ReferenceRenderer.render(scene, spec: bleedSpec)
        #expect(clamped[0, 32].w > bled[0, 32].w + 0.05)
        // Far from the border the two agree.
        #expect(abs(clamped[32, 32].w - bled[32, 32].w) < 1e-6)
    }

    @Test(arguments: EdgeMode.allCases)
    func productionPathMatchesTheReferenceAtEachEdge(edges: EdgeMode) {
        let (reference, spec, scene) = Self.cornerBlob(edges: edges)
        var buffer = PixelBuffer(width: 64, height: 64, format: .rgba64le)
        FrameRenderer(spec: spec, threads: 2).render(scene, dither: false, into: &buffer)
        let error = errorAgainstReference(buffer, reference)
        #expect(error.max < 0.05)
    }
}
