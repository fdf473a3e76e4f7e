import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

/// `render --bundle DIR`: the loop as every file a site or an app needs.
extension Render {
    /// Refuses the options a bundle chooses for itself.
    func validateBundle() throws {
        let refused: [(given: Bool, flag: String, why: String)] = [
            (output.output != nil, "-o", "the bundle's files are named for it"),
            (timing.time != nil, "--time", "the posters show instant 0, where the loop starts"),
            (timing.frameRange != nil, "--frame-range", "a bundle holds the whole loop"),
            (codec != nil, "--codec", "a bundle has AV1, HEVC and H.264 .mp4 files and a VP9 .webm"),
            (output.alpha != .auto, "--alpha", "a transparent loop is stacked alpha with the player"),
            (output.depth != nil, "--depth", "each file has the depth its codec takes"),
            (output.pixelFormat != nil, "--pixel-format", "each file has the layout its codec takes"),
            (ffmpegOptions != nil, "--ffmpeg-options", "the bundle's encoders are set for the web"),
        ]
        if let flag = refused.first(where: \.given) {
            throw ValidationError("--bundle chooses \(flag.flag) itself (\(flag.why)); leave \(flag.flag) out")
        }
        if let encodeSize { _ = try EncodeSizeRequest(parsing: encodeSize) }
        _ = try bundleRates()
    }

    /// `--crf CODEC=CRF` options, by codec.
    ///
    /// - Throws: a ``ValidationError`` for a malformed one, an unknown codec, a rate out
    ///   of the codec's range, or the option without `--bundle`.
    func bundleRates() throws -> [Output.BundleCodec: Int] {
        if !rates.isEmpty, bundle == nil { throw ValidationError("--crf sets a bundle's rates; give --bundle DIR") }
        var chosen: [Output.BundleCodec: Int] = [:]
        for rate in rates {
            let parts = rate.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let codec = Output.BundleCodec(rawValue: String(parts[0])),
                let value = Int(parts[1]),
                codec.crfRange.contains(value)
            else {
                let ranges = Output.BundleCodec.allCases.map { "\($0.rawValue)=\($0.crfRange.description)" }
                throw ValidationError(
                    "--crf \"\(rate)\" is not CODEC=CRF with "
                        + ranges.dropLast().joined(separator: ", ") + " or " + ranges.last!)
            }
            chosen[codec] = value
        }
        return chosen
    }

    /// Writes the bundle of `preset` into `directory` and says what it holds.
    ///
    /// - Throws: ``OutputError`` for an encode size that cannot be read, and the
    ///   ``RenderError`` that `Preset.write(to:…)` throws.
    func writeBundle(of preset: Preset, to directory: String) async throws {
        let request = try encodeSize.map(EncodeSizeRequest.init(parsing:)) ?? .auto
        let target = Output.bundle(directory: directory, rates: try bundleRates())
        let printer = EventPrinter(quiet: output.quiet, verbose: output.verbose) { _, _ in directory }
        let start = Date()
        let summary = try await printer.rendering { events throws(RenderError) in
            try await preset.write(
                to: target, encodeSize: request, dither: output.dither == .on, threads: output.threading.threadCount,
                events: events)
        }
        guard !output.quiet else { return }
        let sizes = summary.loops.map { "\($0.file) \(BundleSummary.kilobytes($0.bytes))" }.joined(separator: ", ")
        printError(
            "Wrote \(directory)/: the loop encoded at \(summary.width)x\(summary.height) "
                + "for \(preset.width)x\(preset.height) (\(sizes)), posters, index.html and manifest.json"
                + String(format: " in %.1f s", Date().timeIntervalSince(start)))
    }
}

/// Wording of a bundle's summary.
enum BundleSummary {
    /// `83 kB` or `1.2 MB`: decimal units, as browsers' network panels show them.
    static func kilobytes(_ bytes: Int) -> String {
        bytes < 1_000_000
            ? "\(Int((Double(bytes) / 1000).rounded())) kB" : String(format: "%.1f MB", Double(bytes) / 1e6)
    }
}
