import FluidGradientIO
import Testing

/// An ISO box: its 32-bit size, type and content.
private func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
    ISOBoxes.encode(8 + content.count, width: 4) + Array(type.utf8) + content
}

private func fullBox(_ type: String, version: UInt8, _ content: [UInt8]) -> [UInt8] {
    box(type, [version, 0, 0, 0] + content)
}

private func u32(_ value: Int) -> [UInt8] { ISOBoxes.encode(value, width: 4) }
private func u16(_ value: Int) -> [UInt8] { ISOBoxes.encode(value, width: 2) }

/// A track: its header (version 0, duration 0 as ffmpeg's avif muxer writes it), a media
/// header of `timescale` and `duration`, and chunk offsets (`co64` when `wide`).
private func track(id: Int, timescale: Int, duration: Int, chunks: [Int], wide: Bool = false) -> [UInt8] {
    let header = fullBox(
        "tkhd", version: 0, u32(0) + u32(0) + u32(id) + u32(0) + u32(0) + [UInt8](repeating: 0, count: 60))
    let mediaHeader = fullBox("mdhd", version: 0, u32(0) + u32(0) + u32(timescale) + u32(duration) + u32(0))
    let offsets =
        wide
        ? fullBox("co64", version: 0, u32(chunks.count) + chunks.flatMap { ISOBoxes.encode($0, width: 8) })
        : fullBox("stco", version: 0, u32(chunks.count) + chunks.flatMap(u32))
    return box("trak", header + box("mdia", mediaHeader + box("minf", box("stbl", offsets))))
}

/// A file laid out as ffmpeg's avif muxer lays it out: ftyp, meta (with `iloc`), moov, mdat.
/// `iloc` is version 1 with a base offset when `baseOffset`, else version 0 with extent offsets.
private func avif(tracks: [[UInt8]], itemOffset: Int, baseOffset: Bool, movieTimescale: Int = 15360) -> [UInt8] {
    let locations =
        baseOffset
        // offset_size 4, length_size 4, base_offset_size 4; one item, method 0, base + extent 16.
        ? fullBox(
            "iloc", version: 1,
            [0x44, 0x40] + u16(1) + u16(1) + u16(0) + u16(0) + u32(itemOffset - 16) + u16(1) + u32(16) + u32(10))
        : fullBox("iloc", version: 0, [0x44, 0x00] + u16(1) + u16(1) + u16(0) + u16(1) + u32(itemOffset) + u32(10))
    let movieHeader = fullBox(
        "mvhd", version: 0, u32(0) + u32(0) + u32(movieTimescale) + u32(0) + [UInt8](repeating: 0, count: 80))
    return box("ftyp", Array("avis".utf8) + u32(0)) + fullBox("meta", version: 0, locations)
        + box("moov", movieHeader + tracks.joined()) + box("mdat", [UInt8](repeating: 7, count: 40))
}

@Suite struct AVIFLoopTests {
    /// Each track gains an edit list that repeats (flag 1) one edit of the whole track in
    /// the movie's time scale, its header an indefinite duration; every offset into mdat
    /// moves by the bytes inserted, in 32- and 64-bit chunk tables and in either form of iloc.
    @Test(arguments: [false, true])
    func everyTrackRepeatsAndEveryOffsetFollowsTheData(baseOffset: Bool) throws {
        // The offsets are placeholders until the layout is known: mdat's content starts
        // after ftyp, meta and moov, whose sizes do not depend on the offsets' values.
        func build(_ data: Int) -> [UInt8] {
            avif(
                tracks: [
                    track(id: 1, timescale: 30, duration: 12, chunks: [data, data + 20]),
                    track(id: 2, timescale: 60, duration: 24, chunks: [data + 30], wide: true),
                ],
                itemOffset: data, baseOffset: baseOffset)
        }
        let layout = ISOBoxes.topLevel(build(0))!
        let data = layout.last!.contentStart
        let original = build(data)
        let looping = try AVIFLoop.loopingForever(original)
        #expect(looping.count == original.count + 2 * 36)
        let top = try #require(ISOBoxes.topLevel(looping))
        #expect(top.map(\.type) == ["ftyp", "meta", "moov", "mdat"])
        #expect(Array(looping[top[3].contentStart...]) == [UInt8](repeating: 7, count: 40), "the data moved intact")
        let moved = top[3].contentStart
        #expect(moved == data + 72)
        let tracks = try #require(ISOBoxes.children(of: looping, inside: top[2])).filter { $0.type == "trak" }
        #expect(tracks.count == 2)
        for (index, track) in tracks.enumerated() {
            let boxes = try #require(ISOBoxes.children(of: looping, inside: track))
            #expect(boxes.map(\.type) == ["tkhd", "edts", "mdia"])
            #expect(
                Array(looping[(boxes[0].contentStart + 20)..<(boxes[0].contentStart + 24)]) == [0xFF, 0xFF, 0xFF, 0xFF])
            // elst version 0, flags 1, one entry: 0.4 s at 15360 a second, from 0, rate 1.
            let edit = Array(looping[boxes[1].contentStart..<boxes[1].end])
            #expect(edit == box("elst", [0, 0, 0, 1] + u32(1) + u32(6144) + u32(0) + [0, 1, 0, 0]), "track \(index)")
        }
        let wideTable = try #require(find("co64", in: looping, under: tracks[1]))
        #expect(ISOBoxes.readInteger(looping, at: wideTable.contentStart + 8, width: 8) == moved + 30)
        let firstTable = try #require(find("stco", in: looping, under: tracks[0]))
        #expect(
            [0, 1].map { ISOBoxes.readInteger(looping, at: firstTable.contentStart + 8 + 4 * $0, width: 4) } == [
                moved, moved + 20,
            ])
        let locations = try #require(ISOBoxes.children(of: looping, inside: top[1], skip: 4)?.first)
        let at = locations.contentStart + 4 + 2 + 2 + 2 + (baseOffset ? 2 : 0) + 2
        let located =
            baseOffset
            ? ISOBoxes.readInteger(looping, at: at, width: 4) + ISOBoxes.readInteger(looping, at: at + 6, width: 4)
            : ISOBoxes.readInteger(looping, at: at + 2, width: 4)
        #expect(located == moved)
    }

    @Test func filesItCannotReadAreRefusedWithAReason() {
        func reason(_ bytes: [UInt8]) -> String? {
            do {
                _ = try AVIFLoop.loopingForever(bytes)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(reason(box("ftyp", [])) == "it has no readable moov box")
        #expect(reason(box("ftyp", []) + [0, 0, 0, 99]) == "it has no readable moov box")
        let edited = try! AVIFLoop.loopingForever(
            avif(tracks: [track(id: 1, timescale: 30, duration: 12, chunks: [0])], itemOffset: 0, baseOffset: false))
        #expect(reason(edited) == "a track already has an edit list")
        #expect(
            reason(
                avif(tracks: [track(id: 1, timescale: 30, duration: 0, chunks: [0])], itemOffset: 0, baseOffset: false))
                == "a track is empty")
        // Outside values that would overflow: a media duration of 2^32 − 1 seconds in a movie
        // time scale of 2^32 − 1, and a 64-bit chunk offset near the largest integer.
        let long = track(id: 1, timescale: 1, duration: 0xFFFF_FFFF, chunks: [0])
        #expect(
            reason(avif(tracks: [long], itemOffset: 0, baseOffset: false, movieTimescale: 0xFFFF_FFFF))
                == "a track is too long")
        let far = track(id: 1, timescale: 30, duration: 12, chunks: [Int.max - 10], wide: true)
        #expect(reason(avif(tracks: [far], itemOffset: 0, baseOffset: false)) == "a data offset is out of range")
    }

    private func find(_ type: String, in bytes: [UInt8], under parent: ISOBox) -> ISOBox? {
        for child in ISOBoxes.children(of: bytes, inside: parent) ?? [] {
            if child.type == type { return child }
            if let found = find(type, in: bytes, under: child) { return found }
        }
        return nil
    }
}
