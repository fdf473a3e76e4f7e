import FluidGradient
import Foundation
import Testing

@Suite struct LayerTreeTests {
    @Test func resizingTheRootRelaysOutTheWholeTree() {
        var root = Scene(base: [Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(0.2, 0.2))]).rootLayer(
            width: 100, height: 50)
        #expect(root.sublayers[0].sublayers[0].frame == LayerRect(width: 100, height: 50))
        root.layout(in: LayerRect(width: 300, height: 200))
        #expect(root.sublayers[0].frame == LayerRect(width: 300, height: 200))
        #expect(root.sublayers[0].sublayers[0].frame == LayerRect(width: 300, height: 200))
        #expect(root.sublayers[1].blendMode == .overlay)
        // Unit-space geometry scales with the frame: the centre pixel stays inside the blob.
        #expect(ReferenceRenderer.value(of: root, x: 150, y: 100).w == 1)
    }

    @Test func aFixedLayerKeepsItsFrame() {
        var child = Layer(name: "fixed", frame: LayerRect(x: 10, y: 10, width: 20, height: 20), isResizable: false)
        child.sublayers = [
            Layer(name: "inner", content: .blob(Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(0.5, 0.5))))
        ]
        child.sublayers[0].frame = LayerRect(x: 10, y: 10, width: 20, height: 20)
        var root = Layer(name: "root", sublayers: [child])
        root.layout(in: LayerRect(width: 100, height: 100))
        #expect(root.sublayers[0].frame == LayerRect(width: 100, height: 100))
        #expect(root.sublayers[0].sublayers[0].frame == LayerRect(x: 10, y: 10, width: 20, height: 20))
        // The blob is drawn in its own layer's frame: centred at (20, 20).
        #expect(ReferenceRenderer.value(of: root, x: 20, y: 20).w == 1)
        #expect(ReferenceRenderer.value(of: root, x: 50, y: 50).w == 0)
    }

    @Test func groupOpacityScalesTheGroup() {
        var root = Layer(
            name: "root",
            sublayers: [
                Layer(
                    name: "group", opacity: 0.5,
                    sublayers: [
                        Layer(
                            name: "blob",
                            content: .blob(Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(1, 1))))
                    ])
            ])
        root.layout(in: LayerRect(width: 10, height: 10))
        #expect(ReferenceRenderer.value(of: root, x: 5, y: 5) == SIMD4(repeating: 0.5))
    }
}
