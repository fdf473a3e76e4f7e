import FluidGradient
import Foundation

/// `count` and its noun, singular or plural: "1 frame", "18 jobs", "0.5 levels".
package func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

package func counted(_ amount: Double, _ noun: String) -> String {
    "\(ParameterRange.format(amount)) \(noun)\(amount == 1 ? "" : "s")"
}

/// The system's words for an `errno` value (the current one by default): "No space left on device".
package func systemReason(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// The text of a NUL-terminated C message buffer.
func cMessage(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
