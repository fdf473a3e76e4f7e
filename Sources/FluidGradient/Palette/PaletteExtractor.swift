/// An image's prominent colours: k-means in OKLab, deterministic.
///
/// Pixels (transparent ones skipped) are sampled on a regular lattice of at most
/// `maximumSamples`, so large images cost the same as small ones. Centres start from
/// k-means++ seeding driven by a fixed ``SplitMix64`` seed, then move by Lloyd's
/// iterations until none moves by more than 10⁻⁶ or 100 iterations pass. Clusters come
/// out largest first, ties broken by lightness, so the same image always gives the
/// same palette.
package struct PaletteExtractor: Sendable {
    package struct Swatch: Hashable, Sendable {
        package var color: RGBA
        package var lab: OKLab
        /// Share of the sampled pixels, 0...1.
        package var share: Double
    }

    package var count: Int
    package var maximumSamples = 65_536
    package var seed: UInt64 = 0x5EED

    package init(count: Int) {
        self.count = count
    }

    /// `pixels` holds `width·height` straight RGBA values in 0...1.
    package func extract(width: Int, height: Int, pixel: (Int, Int) -> SIMD4<Double>) -> [Swatch] {
        let step = max(1, Int((Double(width * height) / Double(maximumSamples)).squareRoot().rounded(.up)))
        var points: [OKLab] = []
        for y in stride(from: step / 2, to: height, by: step) {
            for x in stride(from: step / 2, to: width, by: step) {
                let p = pixel(x, y)
                guard p.w >= 0.5 else { continue }
                points.append(OKLab(red: p.x, green: p.y, blue: p.z))
            }
        }
        guard !points.isEmpty else { return [] }
        var centres = seedCentres(points, k: min(count, points.count))
        var assignment = [Int](repeating: 0, count: points.count)
        for _ in 0..<100 {
            for (index, point) in points.enumerated() {
                assignment[index] = nearest(point, in: centres)
            }
            var sums = [(l: Double, a: Double, b: Double, n: Int)](repeating: (0, 0, 0, 0), count: centres.count)
            for (index, point) in points.enumerated() {
                let c = assignment[index]
                sums[c] = (sums[c].l + point.l, sums[c].a + point.a, sums[c].b + point.b, sums[c].n + 1)
            }
            var moved = 0.0
            for c in centres.indices where sums[c].n > 0 {
                let n = Double(sums[c].n)
                let updated = OKLab(l: sums[c].l / n, a: sums[c].a / n, b: sums[c].b / n)
                moved = max(moved, updated.distance(to: centres[c]))
                centres[c] = updated
            }
            if moved < 1e-6 { break }
        }
        var counts = [Int](repeating: 0, count: centres.count)
        for c in assignment { counts[c] += 1 }
        return centres.indices
            .filter { counts[$0] > 0 }
            .map { Swatch(color: centres[$0].rgba, lab: centres[$0], share: Double(counts[$0]) / Double(points.count)) }
            .sorted { ($0.share, $0.lab.l) > ($1.share, $1.lab.l) }
    }

    /// k-means++: the first centre at random, each next one drawn with probability
    /// proportional to the squared distance to the nearest centre so far.
    private func seedCentres(_ points: [OKLab], k: Int) -> [OKLab] {
        var generator = SplitMix64(seed: seed)
        var centres = [points[Int(generator.nextUnit() * Double(points.count))]]
        var distances = points.map { $0.distance(to: centres[0]) * $0.distance(to: centres[0]) }
        while centres.count < k {
            let total = distances.reduce(0, +)
            guard total > 0 else { break }
            var target = generator.nextUnit() * total
            var chosen = points.count - 1
            for (index, distance) in distances.enumerated() {
                target -= distance
                if target < 0 {
                    chosen = index
                    break
                }
            }
            centres.append(points[chosen])
            for index in points.indices {
                let d = points[index].distance(to: points[chosen])
                distances[index] = min(distances[index], d * d)
            }
        }
        return centres
    }

    private func nearest(_ point: OKLab, in centres: [OKLab]) -> Int {
        var best = 0, bestDistance = Double.infinity
        for (index, centre) in centres.enumerated() {
            let dl = point.l - centre.l, da = point.a - centre.a, db = point.b - centre.b
            let d = dl * dl + da * da + db * db
            if d < bestDistance {
                bestDistance = d
                best = index
            }
        }
        return best
    }
}

extension Preset {
    /// A ready preset from an image's palette: every swatch, largest first, becomes a
    /// blob colour; the darkest, darkened, the background; the most vivid light swatch
    /// among those covering at least a tenth of the image (all of them when none does),
    /// lifted a little towards white, the highlight. A small accent (a sun in a landscape)
    /// would otherwise wash every frame in its colour: a highlight overlays large blobs.
    package init(palette swatches: [PaletteExtractor.Swatch], name: String, description: String) {
        self.init(colors: swatches.map(\.color))
        self.name = name
        self.description = description
        if let darkest = swatches.min(by: { $0.lab.l < $1.lab.l }) {
            background = .color(OKLab(l: darkest.lab.l * 0.45, a: darkest.lab.a * 0.8, b: darkest.lab.b * 0.8).rgba)
        }
        let substantial = swatches.filter { $0.share >= 0.1 }
        if let vivid = (substantial.isEmpty ? swatches : substantial).max(by: {
            $0.lab.l + 2 * $0.lab.chroma < $1.lab.l + 2 * $1.lab.chroma
        }) {
            let lifted = OKLab(
                l: min(vivid.lab.l + (1 - vivid.lab.l) * 0.35, 0.95), a: vivid.lab.a * 0.8, b: vivid.lab.b * 0.8)
            highlights = [lifted.rgba]
        }
        loop = true
        speed = 0.6
    }
}
