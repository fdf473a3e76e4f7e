/// Why a file ffmpeg wrote could not be finished (``VideoEncoding/finishFile(atPath:displayPath:)``):
/// what in its boxes (AVIF) or chunks (WebP) is missing or out of range.
package enum FinishingFailure: Error, Equatable, CustomStringConvertible {
    /// No `moov` box can be read.
    case noReadableMovie
    /// The movie has no header or no track.
    case noMovieHeaderOrTrack
    /// A track already has an edit list.
    case editListPresent
    /// A track has no header or no media header.
    case trackWithoutHeaders
    /// A track's duration does not fit the movie's time scale.
    case trackTooLong
    /// A track lasts no time.
    case emptyTrack
    /// A track header of a version this does not edit.
    case trackHeaderVersion(Int)
    /// A `box` of a version this does not read.
    case boxVersion(box: String, version: Int)
    /// A `box` without a usable time scale or duration.
    case noTiming(box: String)
    /// Growing `box` would pass 4 GB.
    case boxOver4GB(box: String)
    /// The boxes inside `box` do not parse.
    case malformedBox(box: String)
    /// Moving a data offset would take it out of range.
    case dataOffsetOutOfRange
    /// A data offset points into the `moov` box.
    case dataOffsetInMovie
    /// A track has no box of this type.
    case missingBox(String)
    /// A track has no chunk offsets.
    case noChunkOffsets
    /// A chunk offset table ends early.
    case truncatedChunkOffsets
    /// Moving a 32-bit chunk offset would pass 4 GB.
    case chunkOffsetOver4GB
    /// Item locations of a version, or field sizes, this does not read.
    case itemLocationLayout(version: Int)
    /// Moving an item's offset would take it out of range.
    case itemOffsetOutOfRange
    /// The item locations end early.
    case truncatedItemLocations
    /// The file is not a WebP file.
    case notWebP
    /// A chunk of this type ends past the file.
    case truncatedChunk(String)
    /// The frame at this index does not cover the canvas.
    case partialFrame(Int)
    /// The file has no animation frames.
    case noAnimationFrames
    /// The file is not a PNG, or its chunks run past its end.
    case notPNG

    /// What is wrong, after "could not be finished, as".
    package var description: String {
        switch self {
        case .noReadableMovie: "it has no readable moov box"
        case .noMovieHeaderOrTrack: "it has no movie header or no track"
        case .editListPresent: "a track already has an edit list"
        case .trackWithoutHeaders: "a track has no header or no media header"
        case .trackTooLong: "a track is too long"
        case .emptyTrack: "a track is empty"
        case .trackHeaderVersion(let version): "a track header is version \(version)"
        case .boxVersion(let box, let version): "a \(box) box is version \(version)"
        case .noTiming(let box): "a \(box) box has no usable timing"
        case .boxOver4GB(let box): "the \(box) box would pass 4 GB"
        case .malformedBox(let box): "its \(box) box is malformed"
        case .dataOffsetOutOfRange: "a data offset is out of range"
        case .dataOffsetInMovie: "a data offset points into the moov box"
        case .missingBox(let type): "a track has no \(type) box"
        case .noChunkOffsets: "a track has no chunk offsets"
        case .truncatedChunkOffsets: "a chunk offset table is truncated"
        case .chunkOffsetOver4GB: "a chunk offset would pass 4 GB"
        case .itemLocationLayout(let version): "its item locations are version \(version) or have odd field sizes"
        case .itemOffsetOutOfRange: "an item's offset is out of range"
        case .truncatedItemLocations: "its item locations are truncated"
        case .notWebP: "it is not a WebP file"
        case .truncatedChunk(let type): "its \(type) chunk is truncated"
        case .partialFrame(let index): "frame \(index) does not cover the canvas"
        case .noAnimationFrames: "it has no animation frames"
        case .notPNG: "it is not a whole PNG file"
        }
    }
}
