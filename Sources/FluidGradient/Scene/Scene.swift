/// What a frame shows at one instant: the base blobs and the highlight blobs (DESIGN
/// section 1, steps 2 and 3). The production path compiles it into a stack program
/// (``CompiledScene``); ``ReferenceRenderer`` composites it pixel by pixel.
package struct Scene: Hashable, Sendable {
    package var base: [Blob]
    package var highlights: [Blob]

    package init(base: [Blob], highlights: [Blob] = []) {
        self.base = base
        self.highlights = highlights
    }
}
