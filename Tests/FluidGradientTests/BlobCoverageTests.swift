import FluidGradient
import Testing

/// DESIGN sections 2 and 4: blob coverage and blend modes on exact, hand-computed values.
@Suite struct BlobCoverageTests {
    /// A blob centred in a 200×100 frame with semi-axes (50, 20) px; points along +x at distance d.
    static let width = 200.0, height = 100.0
    static func blob(_ color: RGBA, opacity: Double) -> Blob {
        Blob(color: color, center: SIMD2(0.5, 0.5), radius: SIMD2(0.25, 0.2), opacity: opacity)
    }

    @Test(arguments: [(0.0, 1.0), (0.5, 1.0), (0.9, 1.0), (0.95, 0.5), (1.0, 0.0), (1.2, 0.0)])
    func coverageFollowsTheStops(d: Double, coverage: Double) {
        let blob = Self.blob(.white, opacity: 1)
        let x = 100 + d * 50
        #expect(abs(blob.coverage(x: x, y: 50, width: Self.width, height: Self.height) - coverage) < 1e-12)
        // The same along y, where the semi-axis is 20 px.
        #expect(abs(blob.coverage(x: 100, y: 50 + d * 20, width: Self.width, height: Self.height) - coverage) < 1e-12)
        // And the production path's Float evaluation.
        let placed = PlacedBlob(blob: blob, width: Int(Self.width), height: Int(Self.height))
        #expect(abs(Double(placed.coverage(at: SIMD2(Float(x), 50))) - coverage) < 1e-5)
    }

    /// The rasteriser's four-at-a-time coverage is the scalar formula bit for bit,
    /// including either side of the stops at d² = 0.81 and 1.
    @Test func coverageOfFourSquaredDistancesMatchesOneAtATime() {
        var values: [Float] = [0, 0.5, 0.9, 0.95, 0.99, 1.5, 100]
        for stop: Float in [0.81, 1] {
            var below = stop, above = stop
            for _ in 0..<3 {
                below = below.nextDown
                above = above.nextUp
                values += [below, above]
            }
            values.append(stop)
        }
        values += (0..<64).map { 0.8 + Float($0) * 0.0035 }
        while values.count % 4 != 0 { values.append(0.85) }
        for start in stride(from: 0, to: values.count, by: 4) {
            let four = SIMD4(values[start], values[start + 1], values[start + 2], values[start + 3])
            let vector = PlacedBlob.coverage(squaredDistances: four)
            for lane in 0..<4 {
                #expect(
                    vector[lane].bitPattern == PlacedBlob.coverage(squaredDistance: four[lane]).bitPattern,
                    "d² = \(four[lane])")
            }
        }
    }

    @Test(arguments: [
        (RGBA(bytes: 255, 0, 0), 1.0, 0.0, SIMD4<Double>(1, 0, 0, 1)),
        (RGBA(red: 0.2, green: 0.4, blue: 0.6, alpha: 1), 0.5, 0.95, SIMD4<Double>(0.05, 0.1, 0.15, 0.25)),
        (RGBA(red: 1, green: 1, blue: 1, alpha: 0.5), 0.8, 0.5, SIMD4<Double>(0.4, 0.4, 0.4, 0.4)),
        (RGBA(red: 0.2, green: 0.4, blue: 0.6, alpha: 1), 0.7, 1.0, SIMD4<Double>(0, 0, 0, 0)),
    ])
    func premultipliedValueIsColourTimesOpacityTimesCoverage(
        color: RGBA, opacity: Double, d: Double, expected: SIMD4<Double>
    ) {
        let scene = Scene(base: [Self.blob(color, opacity: opacity)])
        let value = ReferenceRenderer.value(of: scene, x: 100 + d * 50, y: 50, width: Self.width, height: Self.height)
        for lane in 0..<4 { #expect(abs(value[lane] - expected[lane]) < 1e-12) }
    }

    @Test func zeroRadiusDrawsNothing() {
        for radius in [SIMD2(0.0, 0.3), SIMD2(0.3, 0.0), SIMD2(0.0, 0.0)] {
            let blob = Blob(color: .white, center: SIMD2(0.5, 0.5), radius: radius)
            #expect(blob.normalizedDistance(x: 100, y: 50, width: 200, height: 100) == nil)
            #expect(blob.coverage(x: 100, y: 50, width: 200, height: 100) == 0)
            let placed = PlacedBlob(blob: blob, width: 200, height: 100)
            #expect(placed.isEmpty)
        }
    }

    @Test func negativeRadiiUseTheirMagnitude() {
        let blob = Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(-0.25, -0.2))
        #expect(abs(blob.coverage(x: 100 + 0.95 * 50, y: 50, width: 200, height: 100) - 0.5) < 1e-12)
    }
}
