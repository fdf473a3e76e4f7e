import Foundation

/// This process's memory, from /proc (children such as ffmpeg not included).
package enum ProcessMemory {
    /// The peak resident set size (VmHWM), in bytes; 0 where /proc is unavailable.
    package static var peakResidentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kibibytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kibibytes * 1024
        }
        return 0
    }
}
