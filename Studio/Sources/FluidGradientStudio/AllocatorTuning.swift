import CMallocTuning
import Foundation

/// The C allocator's settings for a server that runs for weeks under changing load.
///
/// glibc keeps what is freed for reuse: in up to eight arenas a core (one per thread that
/// met a locked arena), and, after a large block is freed, by raising the size below which
/// blocks come from an arena rather than a mapping of their own. Frames, uploads and
/// encoders' buffers come and go in megabytes on many threads, so what a burst freed stays
/// resident, and the server's memory grows with its history rather than with what it
/// holds. The budgets bound what it holds; these settings make its resident memory follow.
package enum AllocatorTuning {
    /// Arenas kept: one for the event loops and one for the render threads is enough for
    /// their locks, and each more arena is memory a burst can strand.
    package static let arenas: Int32 = 2
    /// Blocks from this size up are mappings of their own, given back when freed.
    package static let mappingThreshold: Int32 = 256 << 10
    /// How often free memory is given back.
    package static let trimInterval: Duration = .seconds(5)

    /// Sets ``arenas`` and ``mappingThreshold``; call it first thing, before the server's
    /// threads start.
    ///
    /// - Returns: whether glibc took both settings (false elsewhere).
    @discardableResult
    package static func configure() -> Bool {
        fg_malloc_set_arena_max(arenas) == 1 && fg_malloc_set_mmap_threshold(mappingThreshold) == 1
    }

    /// Gives the free pages of every arena back to the system, the ones between blocks in
    /// use included (which glibc otherwise keeps until the blocks around them are freed).
    ///
    /// - Returns: whether any memory was given back (false elsewhere than glibc).
    @discardableResult
    package static func trim() -> Bool { fg_malloc_trim() == 1 }

    /// Runs ``trim()`` every ``trimInterval``, on a thread of its own (a trim walks the
    /// arenas, holding each one's lock for a moment), until the task is cancelled.
    package static func trimPeriodically() async {
        while (try? await Task.sleep(for: trimInterval)) != nil {
            await withCheckedContinuation { continuation in
                Thread {
                    trim()
                    continuation.resume()
                }.start()
            }
        }
    }
}
