import Testing
import Dispatch
import FluidGradient

@Test func probeSpeed() throws {
    for (w, h, e, blobs, fmt) in [(1920, 1080, 0.75, 5, PixelFormat.rgba), (1920, 1080, 0.5, 5, .rgba), (1920, 1080, 0.9, 5, .rgba), (1920, 1080, 0.75, 48, .rgba), (3840, 2160, 0.75, 5, .rgba), (1920, 1080, 0.75, 5, .yuv420p)] {
        var preset = try PresetFixtures.builtIn("default")
        preset.width = w; preset.height = h; preset.blur = e
        preset.colors = (0..<blobs).map { preset.colors[$0 % preset.colors.count] }
        let animator = Animator(preset: preset)
        let renderer = FrameRenderer(spec: preset.frameSpec, threads: 2)
        let buffer = PixelBuffer(width: w, height: h, format: fmt)
        renderer.render(animator.scene(at: 0), into: buffer)
        renderer.resetTimes()
        let n = 60
        let t0 = DispatchTime.now().uptimeNanoseconds
        for i in 0..<n { renderer.render(animator.scene(at: Double(i) / 60), frameIndex: i, into: buffer) }
        let dt = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9 / Double(n)
        let t = renderer.times
        print("\(w)x\(h) e=\(e) blobs=\(blobs) \(fmt) grid \(renderer.grid.gridWidth)x\(renderer.grid.gridHeight): \(String(format: "%.2f", dt*1000)) ms = \(Int(1/dt)) fps; raster \(String(format: "%.2f", t.raster/Double(n)*1000)) blur \(String(format: "%.2f", t.blur/Double(n)*1000)) output \(String(format: "%.2f", t.output/Double(n)*1000))")
    }
}
