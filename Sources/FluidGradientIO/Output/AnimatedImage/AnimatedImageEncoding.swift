import FluidGradient
import Foundation

/// Animated images: `.webp`, `.apng` and `.avif`, each looping forever.
extension VideoEncoding {
    /// Lossy WebP quality, chosen by measurement (default preset, a 4 s loop at 480x270,
    /// 60 fps, against the 16-bit render): quality 75 gave 339 kB and 45.8 dB but a largest
    /// error of 11.6 levels, 85 gave 456 kB and 10.4 levels, 90 gives 612 kB, 47.6 dB and
    /// 7.8 levels, the first within the 8 levels the video codecs are held to; 95 nearly
    /// doubles the bytes (1.1 MB) for 1.2 dB more.
    static let webpQuality = "90"

    /// The raw layout an animated image takes: 8-bit RGBA for WebP (libwebp converts to its
    /// own BT.601 Y′CbCr) and APNG, which stores it as it is; our yuv420p10le for an opaque
    /// AVIF, and 16-bit RGBA for a transparent one, whose straight colour and alpha ffmpeg
    /// separates (our yuv420p10le is the frame over black).
    var animatedImageInputFormat: PixelFormat {
        switch container {
        case .apng: hasTransparency ? .rgba : .rgb24
        case .avif: hasTransparency ? .rgba64le : .yuv420p10le
        default: .rgba
        }
    }

    /// The options after the input that encode an animated image.
    ///
    /// WebP goes through ffmpeg's still-image `libwebp` encoder and the webp muxer, which
    /// makes every frame a full key frame. `libwebp_anim` (libwebp's WebPAnimEncoder, with
    /// key frames disabled as ffmpeg leaves it) keeps any pixel that changed less than a
    /// quality-dependent threshold since the previous source frame, so a slow gradient is
    /// never refreshed: measured, its error grew to 116 levels within a second (28 dB). The
    /// webp muxer's default is to play once, the apng muxer's too: both are told 0 (forever).
    func animatedImageArguments() -> [String] {
        switch container {
        case .webp:
            return [
                "-c:v", "libwebp", "-lossless", "0", "-quality", VideoEncoding.webpQuality, "-loop", "0", "-f", "webp",
            ]
        case .apng:
            // Mixed prediction (each row its best PNG filter) halves the file against none.
            return ["-c:v", "apng", "-pred", "mixed", "-plays", "0", "-f", "apng"]
        case .avif where hasTransparency:
            return transparentAVIFArguments()
        default:
            return VideoCodec.av1.mp4Arguments(ownRateControl: true) + ["-color_range", "tv"] + colourTags
                + ["-f", "avif"]
        }
    }

    /// A colour track (SVT-AV1, as for an opaque AVIF) and an alpha track, which the avif
    /// muxer takes only as a single plane: SVT-AV1 has no monochrome, so libaom encodes it.
    /// zscale makes limited-range 4:2:0 in ``matrix`` from the straight 16-bit colour (exactly:
    /// see the .mov path). Alpha is full range. libaom's output depends on its thread count,
    /// so that is pinned; its good-quality mode at speed 6 (8 is the same there) and CRF 30
    /// kept alpha within 5.2 levels (mean 0.28) over a 4 s loop at 480x270 in 28 kB,
    /// where real-time mode needed 49 kB for 8.8 levels.
    private func transparentAVIFArguments() -> [String] {
        let split =
            "[0:v]zscale=matrix=\(matrix == .bt709 ? "709" : "170m"):range=limited:chromal=center,"
            + "format=yuva420p10le,split[c][a];[c]format=yuv420p10le[color];[a]extractplanes=a[alpha]"
        let tags = colourTags
        let colorTags = stride(from: 0, to: tags.count, by: 2).flatMap { [tags[$0] + ":v:0", tags[$0 + 1]] }
        let color =
            [
                "-c:v:0", "libsvtav1", "-preset:v:0", "8", "-crf:v:0", "35", "-svtav1-params:v:0",
                VideoCodec.svtParameters,
            ]
            + ["-color_range:v:0", "tv"] + colorTags
        let alpha = ["-c:v:1", "libaom-av1", "-cpu-used:v:1", "6", "-crf:v:1", "30", "-threads:v:1", "2"]
        return ["-filter_complex", split, "-map", "[color]", "-map", "[alpha]"] + color + alpha
            + ["-color_range:v:1", "pc", "-f", "avif"]
    }

    /// Finishes the file ffmpeg wrote at `path` with what its muxer cannot write: an AVIF
    /// is marked to loop forever (``AVIFLoop``), a WebP's frames to replace the canvas
    /// (``AnimatedWebP``); a Display P3 WebP gets its ICC profile (``WebPColorProfile``)
    /// and a Display P3 APNG its cICP and iCCP chunks (``ImageColorTags``); other files
    /// are complete as they are.
    ///
    /// - Throws: ``VideoError`` when the file cannot be read or edited, ``FileError`` when it cannot be written back.
    func finishFile(atPath path: String, displayPath: String) throws {
        let taggedAPNG = container == .apng && colorSpace == .displayP3
        guard container == .avif || container == .webp || taggedAPNG else { return }
        var bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw VideoError.cannotReadBack(path: displayPath, detail: error.localizedDescription)
        }
        do throws(FinishingFailure) {
            if container == .avif {
                bytes = try AVIFLoop.loopingForever(bytes)
            } else if taggedAPNG {
                guard let tagged = ImageColorTags.taggingDisplayP3(png: bytes) else { throw FinishingFailure.notPNG }
                bytes = tagged
            } else {
                try AnimatedWebP.replaceCanvasEachFrame(&bytes)
                if colorSpace == .displayP3 { bytes = try WebPColorProfile.adding(ICCProfile.displayP3, to: bytes) }
            }
        } catch {
            throw VideoError.cannotFinish(path: displayPath, container: container.rawValue, reason: error.description)
        }
        try AtomicFile.overwrite(path, with: bytes, destination: displayPath)
    }
}
