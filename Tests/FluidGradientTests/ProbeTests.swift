import Testing
import Dispatch
@testable import FluidGradient

@Test func probeSpeed() {
    for (w, h, e, blobs, fmt) in [(1920, 1080, 0.75, 6, PixelFormat.rgba), (1920, 1080, 0.5, 6, .rgba), (1920, 1080, 0.9, 6, .rgba), (1920, 1080, 0.75, 48, .rgba), (3840, 2160, 0.75, 6, .rgba), (1920, 1080, 0.75, 6, .yuv420p)] {
        let spec = FrameSpec(width: w, height: h, blurExponent: e, background: .color(try! RGBA(parsing: "#020617")))
        let scene = randomScene(seed: 1, count: blobs, width: w, height: h)
        let root = scene.rootLayer(width: w, height: h)
        let renderer = FrameRenderer(spec: spec, threads: 2)
        let buffer = PixelBuffer(width: w, height: h, format: fmt)
        renderer.render(root, into: buffer)
        renderer.resetTimes()
        let n = 30
        let t0 = DispatchTime.now().uptimeNanoseconds
        for i in 0..<n { renderer.render(root, frameIndex: i, into: buffer) }
        let dt = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9 / Double(n)
        let t = renderer.times
        print("\(w)x\(h) e=\(e) blobs=\(blobs) \(fmt) k=\(renderer.cellSize) grid \(renderer.grid.gridWidth)x\(renderer.grid.gridHeight): \(String(format: "%.2f", dt*1000)) ms/frame = \(Int(1/dt)) fps; raster \(String(format: "%.2f", t.raster/Double(n)*1000)) blur \(String(format: "%.2f", t.blur/Double(n)*1000)) output \(String(format: "%.2f", t.output/Double(n)*1000))")
    }
}
