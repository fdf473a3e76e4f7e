import FluidGradient

/// An output that cannot be written as asked: its path names no kind of output, or the
/// options given do not fit it. Found before anything is rendered. The wording names the
/// command's flags (`--alpha`, `--encode-size`, `--codec`), which are the library's
/// parameters of the same names.
///
/// ``description`` is the one-line message the command line prints.
public enum OutputError: FluidGradientError, Equatable {
    /// The output path is empty.
    case emptyPath
    /// A numbered pattern whose file is not a `.png`.
    case patternNotPNG(path: String)
    /// The path's extension names no output this writes.
    case unknownKind(path: String)
    /// A frame pattern with more than one `%d`.
    case severalFrameNumbers(pattern: String)
    /// A frame pattern without a `%d`.
    case noFrameNumber(pattern: String)
    /// A frame pattern whose number is wider than 12 digits.
    case frameNumberTooWide(pattern: String)
    /// `--alpha keep` for a `container` file, which cannot keep alpha.
    case alphaNotKept(path: String, container: String)
    /// `--alpha keep` for raw frames of a `format` without alpha.
    case rawFormatWithoutAlpha(format: String)
    /// `--alpha stacked` for opaque frames.
    case nothingToStack(path: String)
    /// `--alpha stacked` for frames of an odd `height`.
    case oddStackedHeight(height: Int)
    /// `--alpha stacked` for an output other than an `.mp4`.
    case stackedNeedsMP4
    /// `--encode-size` given `text`, which is not auto, full or a size.
    case unreadableEncodeSize(text: String)
    /// An encode size larger than the output.
    case encodeSizeTooLarge(width: Int, height: Int, outputWidth: Int, outputHeight: Int)
    /// An encode size of another aspect ratio than the output's.
    case encodeSizeAspect(width: Int, height: Int, outputWidth: Int, outputHeight: Int)
    /// An encode size with an odd side, for 4:2:0 video at `path`.
    case encodeSizeOdd(width: Int, height: Int, path: String, outputWidth: Int, outputHeight: Int)
    /// `--codec` for an output other than an `.mp4`; `holdsIt` says whether its container
    /// could hold the codec at all.
    case codecNeedsMP4(codec: String, path: String, container: String, holdsIt: Bool)
    /// An ffmpeg `option` that would replace the filter converting a `container`'s colours.
    case filterClash(option: String, container: String)
    /// A WebP larger than its 16383-pixel sides.
    case webPTooLarge(path: String, width: Int, height: Int)
    /// A 4:2:0 video of an odd side; `codec` names its codec.
    case oddVideoSize(path: String, codec: String, width: Int, height: Int)
    /// A video smaller than its `codec` takes.
    case videoTooSmall(path: String, codec: String, width: Int, height: Int, smallestWidth: Int, smallestHeight: Int)
    /// A bundle's rate for `codec` outside the `range` its encoder takes.
    case crfOutOfRange(codec: String, crf: Int, range: ClosedRange<Int>)
    /// An empty frame range.
    case noFrames
    /// A batch output whose sidecar's name would be `length` bytes, over `limit`.
    case sidecarNameTooLong(path: String, length: Int, limit: Int)

    /// One line that says what does not fit and what to do.
    public var description: String {
        switch self {
        case .emptyPath:
            "the output path is empty; give -o out.png, out.mp4 or -"
        case .patternNotPNG(let path):
            "a numbered pattern writes PNG frames, so it must end in .png (got \(path))"
        case .unknownKind(let path):
            "cannot tell what to write from \"\(path)\": use a .png file, a pattern such as frames/%05d.png, "
                + ".mp4, .mov, .webm, .gif, .webp, .apng, .avif, or - for raw frames on standard output"
        case .severalFrameNumbers(let pattern):
            "\"\(pattern)\" is not a frame pattern: it needs exactly one %d or %05d (write %% for a percent sign)"
        case .noFrameNumber(let pattern):
            "\"\(pattern)\" is not a frame pattern: it needs a %d or %05d"
        case .frameNumberTooWide(let pattern):
            "\"\(pattern)\": the frame number is at most 12 digits wide"
        case .noFrames:
            "the frame range is empty; give at least one frame"
        case .sidecarNameTooLong(let path, let length, let limit):
            "the file name of \(path) leaves no room for its sidecar (\(length) bytes, at most \(limit)); "
                + "shorten the output template"
        default:
            alphaDescription
        }
    }

    /// True: an output and options that do not fit are the caller's.
    public var isInputError: Bool { true }

    private var alphaDescription: String {
        switch self {
        case .alphaNotKept(let path, let container):
            "--alpha keep: \(path) cannot keep alpha (\(VideoContainer(rawValue: container)?.alphaLoss ?? container)); "
                + "write \(AlphaMode.keepingOutputs), "
                + "or an .mp4 with --alpha stacked (colour above alpha, recombined on a web page by the player)"
        case .rawFormatWithoutAlpha(let format):
            "--alpha keep: raw \(format) frames have no alpha; use --pixel-format rgba or rgba64le"
        case .nothingToStack(let path):
            "--alpha stacked: the frames are opaque, so there is no alpha to stack into \(path); give a "
                + "transparent background (--background transparent) or --edges transparent, or leave out "
                + "--alpha stacked"
        case .oddStackedHeight(let height):
            "--alpha stacked: the height must be even so that no 4:2:0 chroma sample mixes colour and alpha, "
                + "but it is \(height); use \(height + 1)"
        case .stackedNeedsMP4:
            "--alpha stacked writes an .mp4 (colour above alpha, in two padded halves); for other outputs use "
                + "--alpha auto: \(AlphaMode.keepingOutputs) keep alpha as it is"
        default:
            sizeDescription
        }
    }

    private var sizeDescription: String {
        switch self {
        case .unreadableEncodeSize(let text):
            "--encode-size: \"\(text)\" is not auto, full or a size such as 640x360"
        case .encodeSizeTooLarge(let width, let height, let outputWidth, let outputHeight):
            "--encode-size \(width)x\(height) is larger than the output, \(outputWidth)x\(outputHeight); "
                + "the encode size is at most the output size, which --size sets"
        case .encodeSizeAspect(let width, let height, let outputWidth, let outputHeight):
            "--encode-size \(width)x\(height) does not keep the output's aspect ratio, \(outputWidth)x\(outputHeight); "
                + EncodeSizeRequest.suggestion(width: outputWidth, height: outputHeight)
        case .encodeSizeOdd(let width, let height, let path, let outputWidth, let outputHeight):
            "--encode-size \(width)x\(height): \(path) is 4:2:0 video, which needs an even width and height; "
                + EncodeSizeRequest.suggestion(width: outputWidth, height: outputHeight)
        default:
            videoDescription
        }
    }

    private var videoDescription: String {
        switch self {
        case .codecNeedsMP4(let codec, let path, let container, let holdsIt):
            "--codec \(codec): "
                + (holdsIt
                    ? "\(path) is always \(VideoContainer(rawValue: container)?.codecName ?? container)"
                    : "a .\(container) cannot hold \(VideoCodec(rawValue: codec)?.displayName ?? codec)")
                + "; --codec chooses the codec of an .mp4 (h264, hevc or av1), so drop it or write .mp4"
        case .filterClash(let option, let container):
            "--ffmpeg-options: \(option) would replace or clash with the filter that converts a .\(container)'s "
                + "colours to BT.709; filter the finished file in a second ffmpeg run instead"
        case .webPTooLarge(let path, let width, let height):
            "\(path): a WebP is at most 16383 pixels a side, but the size is \(width)x\(height); use .webm or .avif"
        case .oddVideoSize(let path, let codec, let width, let height):
            "\(path): \(codec) with 4:2:0 chroma needs an even width and height, but the size is \(width)x\(height); "
                + "use \(width + width % 2)x\(height + height % 2), or .webm, .mov or PNG, which take any size"
        case .videoTooSmall(let path, let codec, let width, let height, let smallestWidth, let smallestHeight):
            "\(path): \(codec) needs a frame of at least \(smallestWidth)x\(smallestHeight), but the size is "
                + "\(width)x\(height); use a larger --size, or --codec h264, .webm or PNG"
        case .crfOutOfRange(let codec, let crf, let range):
            "--crf \(codec)=\(crf): \(codec)'s rate is \(range.lowerBound) to \(range.upperBound) (lower is better "
                + "and more bytes); give one in that range, or leave --crf out to have it searched"
        default:
            preconditionFailure("every case has its description")
        }
    }
}
