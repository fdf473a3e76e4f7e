extension SceneView {
    /// Composites `samples` samples at once with a reduced program into the planes of
    /// `stack`: level `l`'s red, green, blue and alpha of sample `s` lie at
    /// `(4·l + channel)·planeStride + s` (see ``RasterScratch/wideStack``). Varying blob
    /// `b`'s coverage at sample `s` is `sampled[b·blobStride + s]`.
    ///
    /// Each sample gets exactly the arithmetic of the one-sample
    /// ``composite(_:count:stack:coverage:)``, channel by channel. The loops go four
    /// samples at a time, in whole groups of four (the lanes past `samples` are computed
    /// from whatever `sampled` holds there and never read), with no branch per sample: a
    /// blob that does not cover a sample leaves it as it is, `0 + v·(1 − 0)`.
    @inline(__always)
    func compositeSamples(
        _ program: UnsafePointer<ReducedOperation>, count: Int, samples: Int, coverage: UnsafePointer<Float>,
        sampled: UnsafePointer<Float>, blobStride: Int, stack: UnsafeMutablePointer<Float>, planeStride: Int
    ) {
        let groups = (samples + 3) / 4, level = 4 * planeStride
        var top = stack
        Planes(top, stride: planeStride).clear(groups: groups)
        for step in 0..<count {
            switch program[step] {
            case .begin:
                top += level
                Planes(top, stride: planeStride).clear(groups: groups)
            case .affine(let scale, let offset):
                for channel in 0..<4 {
                    let plane = Planes.Plane(top + channel * planeStride), add = offset[channel]
                    for group in 0..<groups { plane[group] = plane[group] * scale + add }
                }
            case .blob(let index):
                let fixed = coverage[index]
                guard fixed != 0 else { continue }
                let planes = Planes(top, stride: planeStride), color = blobs[index].color
                let varying = Planes.Plane(UnsafeMutablePointer(mutating: sampled + index * blobStride))
                for group in 0..<groups {
                    let c = fixed > 0 ? SIMD4(repeating: fixed) : varying[group]
                    // `source = color·c; top = source + top·(1 − source.w)`, per channel.
                    let alpha = color.w * c, keep = 1 - alpha
                    planes.red[group] = color.x * c + planes.red[group] * keep
                    planes.green[group] = color.y * c + planes.green[group] * keep
                    planes.blue[group] = color.z * c + planes.blue[group] * keep
                    planes.alpha[group] = alpha + planes.alpha[group] * keep
                }
            case .end(let mode):
                let below = top - level
                Planes(below, stride: planeStride).blend(Planes(top, stride: planeStride), mode: mode, groups: groups)
                top = below
            }
        }
    }
}

/// One level of the wide stack: four planes, read and written four samples at a time.
struct Planes {
    /// One channel's values, in groups of four samples.
    struct Plane {
        let base: UnsafeMutablePointer<Float>

        init(_ base: UnsafeMutablePointer<Float>) { self.base = base }

        @inline(__always)
        subscript(group: Int) -> SIMD4<Float> {
            get { UnsafeRawPointer(base + 4 * group).loadUnaligned(as: SIMD4<Float>.self) }
            nonmutating set {
                UnsafeMutableRawPointer(base + 4 * group).storeBytes(of: newValue, as: SIMD4<Float>.self)
            }
        }
    }

    let red: Plane
    let green: Plane
    let blue: Plane
    let alpha: Plane

    init(_ level: UnsafeMutablePointer<Float>, stride: Int) {
        red = Plane(level)
        green = Plane(level + stride)
        blue = Plane(level + 2 * stride)
        alpha = Plane(level + 3 * stride)
    }

    /// Sets the first `groups` groups of four samples to transparent. A loop of stores:
    /// a call to `memset` per plane cost more than the few groups a cell has.
    @inline(__always)
    func clear(groups: Int) {
        for group in 0..<groups {
            red[group] = .zero
            green[group] = .zero
            blue[group] = .zero
            alpha[group] = .zero
        }
    }

    /// `self = mode.composite(source: top, backdrop: self)` for every sample, lane for
    /// lane the arithmetic of ``BlendMode/composite(source:backdrop:)``.
    @inline(__always)
    func blend(_ top: Planes, mode: BlendMode, groups: Int) {
        for group in 0..<groups {
            let alphaS = top.alpha[group], alphaB = alpha[group]
            switch mode {
            case .normal:
                let keep = 1 - alphaS
                red[group] = top.red[group] + red[group] * keep
                green[group] = top.green[group] + green[group] * keep
                blue[group] = top.blue[group] + blue[group] * keep
                alpha[group] = alphaS + alphaB * keep
            case .overlay:
                let product = alphaS * alphaB
                func overlay(_ s: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
                    let multiply = 2 * s * b
                    let screen = product - 2 * (alphaS - s) * (alphaB - b)
                    let term = screen.replacing(with: multiply, where: 2 * b .<= alphaB)
                    return s * (1 - alphaB) + b * (1 - alphaS) + term
                }
                red[group] = overlay(top.red[group], red[group])
                green[group] = overlay(top.green[group], green[group])
                blue[group] = overlay(top.blue[group], blue[group])
                alpha[group] = alphaS + alphaB * (1 - alphaS)
            case .overlayLinear, .overlayOKLab, .overlayOKLabDisplayP3:
                blendLaneByLane(top, mode: mode, group: group)
            }
        }
    }

    /// A blend with no vector form (an overlay of layers mixed outside sRGB, which
    /// converts each colour): ``MixedOverlay/composite(source:backdrop:)``, the `Float`
    /// form of ``BlendMode/composite(source:backdrop:)``, sample by sample.
    @inline(never)
    func blendLaneByLane(_ top: Planes, mode: BlendMode, group: Int) {
        guard let overlay = MixedOverlay.of(mode) else { preconditionFailure("\(mode) has a vector form") }
        let (r, g, b, a) = (red[group], green[group], blue[group], alpha[group])
        let (tr, tg, tb, ta) = (top.red[group], top.green[group], top.blue[group], top.alpha[group])
        var out = (r, g, b, a)
        for lane in 0..<4 {
            let value = overlay.composite(
                source: SIMD4(tr[lane], tg[lane], tb[lane], ta[lane]),
                backdrop: SIMD4(r[lane], g[lane], b[lane], a[lane]))
            (out.0[lane], out.1[lane], out.2[lane], out.3[lane]) = (value.x, value.y, value.z, value.w)
        }
        (red[group], green[group], blue[group], alpha[group]) = out
    }
}
