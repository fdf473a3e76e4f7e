import FluidGradientIO
import Foundation
import Testing

/// Every video and AVIF we write names its transfer: sRGB (13), what its frames are
/// encoded in, in the container and in the bitstream where the codec has the field; a
/// ProRes .mov says BT.709 (1), as ProRes has no code for sRGB. Never unspecified (2),
/// which Chromium reads as a BT.601 matrix and WebKit as untagged video.
@Suite struct TransferTagTests {
    static let clip = ["render", "--preset", "sunset", "--size", "128x72", "--frames", "4", "--fps", "30", "--quiet"]

    /// The `transfer_characteristics` fields the bitstream filter reads from the first frame.
    static func bitstreamTransfers(_ path: String) -> [String] {
        let log = toolOutput([
            "sh", "-c",
            "ffmpeg -hide_banner -i \"$0\" -map 0:v:0 -c copy -bsf:v trace_headers -frames:v 1 -f null - 2>&1", path,
        ])
        return String(decoding: log, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.contains("transfer_characteristics") else { return nil }
            return line.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test(arguments: [
        (["--codec", "h264"], "a.mp4", "iec61966-2-1", "13"), (["--codec", "hevc"], "b.mp4", "iec61966-2-1", "13"),
        (["--codec", "av1"], "c.mp4", "iec61966-2-1", "13"), ([], "d.webm", "iec61966-2-1", nil),
        (["--background", "transparent"], "e.webm", "iec61966-2-1", nil), ([], "f.avif", "iec61966-2-1", "13"),
        (["--background", "transparent"], "g.avif", "iec61966-2-1", "13"),
        (["--background", "transparent", "--alpha", "stacked"], "h.mp4", "iec61966-2-1", "13"),
        ([], "i.mov", "bt709", nil),
    ])
    func renderTagsTheTransfer(options: [String], file: String, container: String, bitstream: String?) {
        let scratch = Scratch()
        let path = scratch.file(file)
        let result = run(Self.clip + options + ["-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(probe(path, countFrames: false)["color_transfer"] == container, "\(file)")
        let transfers = Self.bitstreamTransfers(path)
        if let bitstream {
            #expect(!transfers.isEmpty && transfers.allSatisfy { $0 == bitstream }, "\(file): \(transfers)")
        }
        #expect(!transfers.contains("2"), "\(file): unspecified in the bitstream")
    }

    /// A bundle's loops and its AVIF poster: sRGB's transfer and BT.601's matrix, in the
    /// container and the bitstream. Given rates skip the rate search: it does not change the
    /// tags, and it makes the bundle half again as long, near the harness's 120 s under load.
    @Test func bundleFilesTagTheTransferAndMatrix() throws {
        let scratch = Scratch()
        let bundle = scratch.file("bundle")
        let result = run(
            [
                "render", "--preset", "sunset", "--size", "256x144", "--frames", "4", "--fps", "30", "--quiet",
                "--bundle", bundle,
            ] + BundleCommandTests.givenRates)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: bundle).filter {
            $0.hasSuffix(".mp4") || $0.hasSuffix(".webm") || $0.hasSuffix(".avif")
        }
        #expect(files.count == 5, "\(files)")
        for file in files {
            let info = probe(bundle + "/" + file, countFrames: false)
            #expect(info["color_transfer"] == "iec61966-2-1" && info["color_space"] == "smpte170m", "\(file): \(info)")
            let transfers = Self.bitstreamTransfers(bundle + "/" + file)
            #expect(
                file.hasSuffix(".webm") || !transfers.isEmpty && transfers.allSatisfy { $0 == "13" },
                "\(file): \(transfers)")
        }
    }
}
