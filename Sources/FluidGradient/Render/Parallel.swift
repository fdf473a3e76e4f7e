import Dispatch

/// Runs `body` over `0..<count` split into contiguous chunks, on up to `threads` threads.
///
/// Chunks never share an element, and every element is computed the same way
/// whichever chunk holds it, so results do not depend on the thread count.
@inlinable
func parallelChunks(_ count: Int, threads: Int, minimumChunk: Int = 1, _ body: (Range<Int>) -> Void) {
    guard count > 0 else { return }
    let chunkCount = min(max(threads, 1) * 4, max(count / max(minimumChunk, 1), 1))
    if threads <= 1 || chunkCount <= 1 {
        body(0..<count)
        return
    }
    withoutActuallyEscaping(body) { body in
        let task = ChunkTask(body: body)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let lower = chunk * count / chunkCount, upper = (chunk + 1) * count / chunkCount
            task.body(lower..<upper)
        }
    }
}

/// Lets a non-escaping closure cross into `concurrentPerform`; the closure only
/// writes disjoint memory per chunk, or shared memory under a lock.
@usableFromInline
struct ChunkTask: @unchecked Sendable {
    @usableFromInline let body: (Range<Int>) -> Void
    @usableFromInline init(body: @escaping (Range<Int>) -> Void) { self.body = body }
}
