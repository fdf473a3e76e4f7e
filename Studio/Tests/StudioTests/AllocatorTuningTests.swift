import FluidGradientStudio
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// This process's resident bytes, from `/proc/self/statm` (pages).
private func residentBytes() throws -> Int {
    let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
    let fields = text.split(separator: " ")
    return try #require(fields.count > 1 ? Int(fields[1]) : nil) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

@Suite("Allocator tuning")
struct AllocatorTuningTests {
    /// 192 MiB in 2 KiB blocks (below any mapping threshold, so from an arena), every page
    /// written, then freed but for one block in 64 and one after them all, so that glibc
    /// cannot give the space back by shrinking the heap's top: as the server's arenas are
    /// left after a burst of frames and uploads freed in another order than they came.
    @Test("a trim gives back the free pages between blocks in use, which glibc keeps otherwise")
    func trimGivesBackStrandedPages() throws {
        let blockSize = 2048, count = (192 << 20) / blockSize
        var blocks: [UnsafeMutableRawPointer] = []
        blocks.reserveCapacity(count)
        for _ in 0..<count {
            let block = try #require(malloc(blockSize))
            memset(block, 0x5A, blockSize)
            blocks.append(block)
        }
        let pin = malloc(64)
        defer { free(pin) }
        let start = try residentBytes()
        for (index, block) in blocks.enumerated() where index % 64 != 0 { free(block) }
        defer { for index in stride(from: 0, to: count, by: 64) { free(blocks[index]) } }
        let freed = try residentBytes()
        // The control: without a trim, what was freed stays resident (most of 189 MiB).
        #expect(freed > start - (64 << 20), "glibc gave \((start - freed) >> 20) MiB back by itself")
        #expect(AllocatorTuning.trim())
        let trimmed = try residentBytes()
        #expect(trimmed < freed - (128 << 20), "the trim gave back \((freed - trimmed) >> 20) MiB")
    }
}
