import Foundation

/// The rasteriser's working memory, kept from frame to frame: a ``RasterScratch`` for
/// each chunk of rows composited at once. A chunk takes one and gives it back, so the
/// patterns one chunk folded serve the chunks after it in the same frame. A new frame
/// empties the pattern caches, since a pattern's terms depend on where the blobs are.
///
/// An entry of a pattern cache is a pure function of its pattern and the frame's scene,
/// so which scratch a chunk takes never changes a value.
final class RasterScratchPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [RasterScratch] = []
    private var frame = 0

    /// Starts a frame of `scene` on rows of `width` cells: scratches sized for another
    /// scene or grid are dropped, and the kept ones forget the last frame's patterns when
    /// next taken.
    func beginFrame(_ scene: SceneView, width: Int) {
        lock.withLock {
            frame &+= 1
            idle.removeAll { !$0.fits(scene, width: width) }
        }
    }

    /// A scratch for the frame begun, with only this frame's patterns in its cache; give
    /// it back when the chunk is done.
    func take(_ scene: SceneView, width: Int) -> RasterScratch {
        let (kept, frame) = lock.withLock { (idle.popLast(), self.frame) }
        let scratch = kept ?? RasterScratch(scene: scene, width: width)
        assert(scratch.fits(scene, width: width), "a scratch of another scene or grid")
        if scratch.frame != frame {
            scratch.patterns.removeAll()
            scratch.frame = frame
        }
        return scratch
    }

    /// Returns a scratch taken for this frame, its moments already handed on.
    func giveBack(_ scratch: RasterScratch) {
        assert(scratch.moments.isEmpty, "a scratch given back with moments not handed on")
        lock.withLock { idle.append(scratch) }
    }
}
