/// A loop's rate: which codec it is, the bar it must meet and the rates searched.
extension BundleOutput {
    /// The loop's codec, whose rate it takes, or nil for a poster.
    var rateCodec: Output.BundleCodec? {
        switch kind {
        case .loop(.webm, _, _): .vp9
        case .loop(_, .av1, _): .av1
        case .loop(_, .hevc, _): .hevc
        case .loop(_, .h264, _): .h264
        default: nil
        }
    }

    /// The bar the loop must meet: 50 dB and 8 levels, 49 dB for H.264 (issue 33's targets;
    /// VP9 is held to AV1's).
    var rateBar: RateSearch.Bar {
        RateSearch.Bar(psnr: rateCodec == .h264 ? 49 : 50, largest: 8)
    }

    /// The rates searched: from the median of the rates the search chose for the 14 built-in
    /// presets' 10 s 1080p60 loops (BENCHMARKS.md, issue 33), within bounds that keep a
    /// search short.
    var rateLadder: RateSearch.Ladder {
        switch rateCodec {
        case .av1: RateSearch.Ladder(start: 39, lowest: 23, highest: 51, step: 2, slope: 0.25)
        case .hevc: RateSearch.Ladder(start: 20, lowest: 14, highest: 34, step: 2, slope: 0.35)
        case .vp9: RateSearch.Ladder(start: 30, lowest: 18, highest: 50, step: 2, slope: 0.25)
        default: RateSearch.Ladder(start: 20, lowest: 12, highest: 30, step: 1, slope: 0.4)
        }
    }

    /// ffmpeg's options for the rate `crf`: VP9 takes it as constant quality only with no
    /// target bitrate.
    func rateOptions(_ crf: Int) -> [String] {
        ["-crf", String(crf)] + (rateCodec == .vp9 ? ["-b:v", "0"] : [])
    }
}
