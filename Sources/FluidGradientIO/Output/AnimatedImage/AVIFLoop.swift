/// Marks an animated AVIF as playing forever, which ffmpeg 5.1's avif muxer cannot say.
///
/// HEIF (ISO/IEC 23008-12, 9.6.1) says it with an edit list: each track gets an `edts`
/// box whose `elst` has flag 1 (repeat the edits) and one edit spanning the whole track,
/// and the track header's duration becomes indefinite (all ones). That is what libavif
/// writes for an infinite repetition count and reads back as one; without an edit list
/// the count is unknown, which Chromium and Firefox play forever but other readers
/// may play once.
///
/// The `edts` boxes go into `moov`, which lies before `mdat`, so every absolute offset
/// into the file behind `moov` (the tracks' `stco`/`co64` chunk offsets and the still
/// image's `iloc` extents) moves by the bytes inserted.
package enum AVIFLoop {
    /// `bytes` with every track repeating forever; a still image as it is.
    package static func loopingForever(_ bytes: [UInt8]) throws(FinishingFailure) -> [UInt8] {
        var patched = bytes
        let top = ISOBoxes.topLevel(bytes) ?? []
        // One frame is a still image, an item in `meta` with no track: nothing repeats.
        if !top.contains(where: { $0.type == "moov" }), top.contains(where: { $0.type == "meta" }) { return bytes }
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            throw FinishingFailure.noReadableMovie
        }
        let movie = try children(of: moov, in: bytes)
        let tracks = movie.filter { $0.type == "trak" }
        guard let movieHeader = movie.first(where: { $0.type == "mvhd" }), !tracks.isEmpty else {
            throw FinishingFailure.noMovieHeaderOrTrack
        }
        let movieTimescale = try timing(of: movieHeader, in: bytes).timescale
        var insertions: [(offset: Int, bytes: [UInt8])] = []
        for track in tracks {
            let boxes = try children(of: track, in: bytes)
            guard !boxes.contains(where: { $0.type == "edts" }) else {
                throw FinishingFailure.editListPresent
            }
            guard let header = boxes.first(where: { $0.type == "tkhd" }),
                let media = boxes.first(where: { $0.type == "mdia" }),
                let mediaHeader = try children(of: media, in: bytes).first(where: { $0.type == "mdhd" })
            else { throw FinishingFailure.trackWithoutHeaders }
            let mediaTiming = try timing(of: mediaHeader, in: bytes)
            // The track's length in the movie's time scale, which an edit is counted in.
            let (scaled, overflow) = mediaTiming.duration.multipliedReportingOverflow(by: movieTimescale)
            guard !overflow else { throw FinishingFailure.trackTooLong }
            let duration = (scaled + mediaTiming.timescale / 2) / mediaTiming.timescale
            guard duration > 0 else { throw FinishingFailure.emptyTrack }
            try makeIndefinite(header, in: &patched)
            let edit = editList(repeating: duration)
            insertions.append((header.end, edit))
            try grow(track, by: edit.count, in: &patched)
        }
        let added = insertions.reduce(0) { $0 + $1.bytes.count }
        try grow(moov, by: added, in: &patched)
        let shift = Shift(moov: moov, added: added)
        for track in tracks { try shiftChunkOffsets(in: track, original: bytes, patched: &patched, by: shift) }
        if let meta = top.first(where: { $0.type == "meta" }) {
            try shiftItemLocations(in: meta, original: bytes, patched: &patched, by: shift)
        }
        var output: [UInt8] = []
        output.reserveCapacity(patched.count + added)
        var copied = 0
        for insertion in insertions.sorted(by: { $0.offset < $1.offset }) {
            output += patched[copied..<insertion.offset] + insertion.bytes
            copied = insertion.offset
        }
        return output + patched[copied...]
    }

    /// An `edts` box holding an `elst` (version 0, or 1 for a duration past 32 bits) with
    /// flag 1 and one edit: the whole track, from its start, at normal rate.
    static func editList(repeating duration: Int) -> [UInt8] {
        let wide = duration > Int(UInt32.max)
        let entry =
            wide
            ? ISOBoxes.encode(duration, width: 8) + ISOBoxes.encode(0, width: 8)
            : ISOBoxes.encode(duration, width: 4) + ISOBoxes.encode(0, width: 4)
        let elstContent = [wide ? 1 : 0, 0, 0, 1] + ISOBoxes.encode(1, width: 4) + entry + [0, 1, 0, 0]
        let elst = ISOBoxes.encode(8 + elstContent.count, width: 4) + Array("elst".utf8) + elstContent
        return ISOBoxes.encode(8 + elst.count, width: 4) + Array("edts".utf8) + elst
    }

    /// Sets a track header's duration to indefinite (all ones).
    private static func makeIndefinite(_ header: ISOBox, in bytes: inout [UInt8]) throws(FinishingFailure) {
        let version = bytes[header.contentStart]
        // After version and flags: creation and modification times, track ID, a reserved word.
        let (offset, width) = version == 1 ? (header.contentStart + 28, 8) : (header.contentStart + 20, 4)
        guard version <= 1, offset + width <= header.end else {
            throw FinishingFailure.trackHeaderVersion(Int(version))
        }
        for index in offset..<(offset + width) { bytes[index] = 0xFF }
    }

    /// The time scale and duration of a movie (`mvhd`) or media (`mdhd`) header, which
    /// share their layout up to the duration.
    private static func timing(
        of header: ISOBox, in bytes: [UInt8]
    ) throws(FinishingFailure) -> (timescale: Int, duration: Int) {
        let version = bytes[header.contentStart]
        // After version and flags: creation and modification times.
        let (offset, width) = version == 1 ? (header.contentStart + 20, 8) : (header.contentStart + 12, 4)
        guard version <= 1, offset + 4 + width <= header.end else {
            throw FinishingFailure.boxVersion(box: header.type, version: Int(version))
        }
        let timescale = ISOBoxes.readInteger(bytes, at: offset, width: 4)
        let duration = ISOBoxes.readInteger(bytes, at: offset + 4, width: width)
        guard timescale > 0, duration >= 0, duration < 1 << 40 else {
            throw FinishingFailure.noTiming(box: header.type)
        }
        return (timescale, duration)
    }

    /// Adds `count` to a box's size field.
    private static func grow(_ box: ISOBox, by count: Int, in bytes: inout [UInt8]) throws(FinishingFailure) {
        if box.headerSize == 16 {
            ISOBoxes.writeInteger(box.size + count, into: &bytes, at: box.offset + 8, width: 8)
        } else {
            guard box.size + count <= Int(UInt32.max) else {
                throw FinishingFailure.boxOver4GB(box: box.type)
            }
            ISOBoxes.writeInteger(box.size + count, into: &bytes, at: box.offset, width: 4)
        }
    }

    fileprivate static func children(
        of box: ISOBox, in bytes: [UInt8], skip: Int = 0
    ) throws(FinishingFailure) -> [ISOBox] {
        guard let boxes = ISOBoxes.children(of: bytes, inside: box, skip: skip) else {
            throw FinishingFailure.malformedBox(box: box.type)
        }
        return boxes
    }

    /// How an absolute file offset moves: past `moov` by the bytes added, before it not at all.
    struct Shift {
        let moov: ISOBox
        let added: Int

        func apply(to offset: Int) throws(FinishingFailure) -> Int {
            if offset >= moov.end {
                let (moved, overflow) = offset.addingReportingOverflow(added)
                guard !overflow else { throw FinishingFailure.dataOffsetOutOfRange }
                return moved
            }
            guard offset < moov.offset else { throw FinishingFailure.dataOffsetInMovie }
            return offset
        }
    }

    /// Moves the chunk offsets of a track's `stco` (32-bit) or `co64` (64-bit) box.
    private static func shiftChunkOffsets(
        in track: ISOBox, original bytes: [UInt8], patched: inout [UInt8], by shift: Shift
    ) throws(FinishingFailure) {
        var box = track
        for type in ["mdia", "minf", "stbl"] {
            guard let next = try children(of: box, in: bytes).first(where: { $0.type == type }) else {
                throw FinishingFailure.missingBox(type)
            }
            box = next
        }
        guard let table = try children(of: box, in: bytes).first(where: { $0.type == "stco" || $0.type == "co64" })
        else {
            throw FinishingFailure.noChunkOffsets
        }
        let width = table.type == "co64" ? 8 : 4
        let count = ISOBoxes.readInteger(bytes, at: table.contentStart + 4, width: 4)
        let first = table.contentStart + 8
        guard first + count * width <= table.end else {
            throw FinishingFailure.truncatedChunkOffsets
        }
        for entry in 0..<count {
            let at = first + entry * width
            let moved = try shift.apply(to: ISOBoxes.readInteger(bytes, at: at, width: width))
            guard width == 8 || moved <= Int(UInt32.max) else {
                throw FinishingFailure.chunkOffsetOver4GB
            }
            ISOBoxes.writeInteger(moved, into: &patched, at: at, width: width)
        }
    }
}

extension AVIFLoop {
    /// Moves the file offsets of the still image's `iloc` extents (ISO/IEC 14496-12,
    /// 8.11.3): an item stored in the file (construction method 0) lies at its base
    /// offset plus each extent's offset, so the base moves when it has one, else each extent.
    fileprivate static func shiftItemLocations(
        in meta: ISOBox, original bytes: [UInt8], patched: inout [UInt8], by shift: Shift
    ) throws(FinishingFailure) {
        guard let locations = try children(of: meta, in: bytes, skip: 4).first(where: { $0.type == "iloc" }) else {
            return
        }
        var reader = FieldReader(bytes: bytes, position: locations.contentStart, end: locations.end)
        let version = try reader.read(1)
        _ = try reader.read(3)
        let sizes = try reader.read(2)
        let (offsetSize, lengthSize, baseSize) = (sizes >> 12, sizes >> 8 & 15, sizes >> 4 & 15)
        let indexSize = version >= 1 ? sizes & 15 : 0
        guard version <= 2, [offsetSize, lengthSize, baseSize, indexSize].allSatisfy([0, 4, 8].contains) else {
            throw FinishingFailure.itemLocationLayout(version: version)
        }
        let itemCount = try reader.read(version < 2 ? 2 : 4)
        for _ in 0..<itemCount {
            _ = try reader.read(version < 2 ? 2 : 4)
            let method = version >= 1 ? try reader.read(2) & 15 : 0
            _ = try reader.read(2)
            let baseAt = reader.position
            let base = try reader.read(baseSize)
            var extents: [(at: Int, offset: Int)] = []
            for _ in 0..<(try reader.read(2)) {
                _ = try reader.read(indexSize)
                extents.append((reader.position, try reader.read(offsetSize)))
                _ = try reader.read(lengthSize)
            }
            guard method == 0, let first = extents.first else { continue }
            if baseSize > 0 {
                let (start, overflow) = base.addingReportingOverflow(first.offset)
                guard !overflow else { throw FinishingFailure.itemOffsetOutOfRange }
                let moved = try shift.apply(to: start) - first.offset
                ISOBoxes.writeInteger(moved, into: &patched, at: baseAt, width: baseSize)
            } else {
                for extent in extents where offsetSize > 0 {
                    ISOBoxes.writeInteger(
                        try shift.apply(to: extent.offset), into: &patched, at: extent.at, width: offsetSize)
                }
            }
        }
    }

    /// Big-endian fields read one after another, never past `end`.
    fileprivate struct FieldReader {
        let bytes: [UInt8]
        var position: Int
        let end: Int

        mutating func read(_ width: Int) throws(FinishingFailure) -> Int {
            guard position + width <= end else { throw FinishingFailure.truncatedItemLocations }
            defer { position += width }
            return ISOBoxes.readInteger(bytes, at: position, width: width)
        }
    }
}
