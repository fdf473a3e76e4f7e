/// A rectangle in pixel space, origin at the top-left.
package struct LayerRect: Hashable, Sendable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double = 0, y: Double = 0, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A node of the scene graph, after CoreAnimation's `CALayer`.
///
/// A layer draws its own content (nothing, or one blob), then its sublayers in order,
/// each blended onto what is there with the sublayer's ``blendMode``. The result is
/// scaled by ``opacity`` before its parent blends it in. Layers never clip: a blob is
/// defined on the whole plane, which is what `EdgeMode.bleed` relies on.
package struct Layer: Sendable {
    package enum Content: Sendable {
        case empty
        /// A blob whose unit-space geometry is scaled by this layer's frame.
        case blob(Blob)
    }

    package var name: String
    package var frame: LayerRect
    package var opacity: Double
    package var blendMode: BlendMode
    /// Whether ``layout(in:)`` stretches every sublayer to this layer's frame, as the
    /// original's `ResizableLayer` does in `layoutSublayers()`.
    package var isResizable: Bool
    package var content: Content
    package var sublayers: [Layer]

    package init(
        name: String,
        frame: LayerRect = LayerRect(width: 0, height: 0),
        opacity: Double = 1,
        blendMode: BlendMode = .normal,
        isResizable: Bool = true,
        content: Content = .empty,
        sublayers: [Layer] = []
    ) {
        self.name = name
        self.frame = frame
        self.opacity = opacity
        self.blendMode = blendMode
        self.isResizable = isResizable
        self.content = content
        self.sublayers = sublayers
    }

    /// Gives this layer `frame`; a resizable layer then lays out each sublayer to fill
    /// it, recursively, so resizing the root re-lays out the whole tree.
    package mutating func layout(in frame: LayerRect) {
        self.frame = frame
        guard isResizable else { return }
        for index in sublayers.indices {
            sublayers[index].layout(in: frame)
        }
    }
}

/// What a frame shows at one instant: the base blobs and the highlight blobs.
package struct Scene: Hashable, Sendable {
    package var base: [Blob]
    package var highlights: [Blob]

    package init(base: [Blob], highlights: [Blob] = []) {
        self.base = base
        self.highlights = highlights
    }

    /// The original's layer tree: a resizable root holding a base layer of blob layers
    /// and, above it, a highlight layer of blob layers blended with `overlay`
    /// (DESIGN section 1, steps 2 and 3), laid out for a `width × height` frame.
    package func rootLayer(width: Int, height: Int) -> Layer {
        func blobLayers(_ blobs: [Blob], prefix: String) -> [Layer] {
            blobs.enumerated().map { index, blob in
                Layer(name: "\(prefix)[\(index)]", content: .blob(blob))
            }
        }
        var root = Layer(
            name: "root",
            sublayers: [
                Layer(name: "base", sublayers: blobLayers(base, prefix: "blob")),
                Layer(name: "highlights", blendMode: .overlay, sublayers: blobLayers(highlights, prefix: "highlight")),
            ]
        )
        root.layout(in: LayerRect(width: Double(width), height: Double(height)))
        return root
    }
}
