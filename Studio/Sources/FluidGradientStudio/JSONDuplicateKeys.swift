import Foundation

/// Finds a key that a JSON object holds twice, which Foundation's decoders take silently
/// (keeping one of the values) but the library's preset parser refuses: so every JSON body
/// of the API refuses it alike. One pass, no recursion, linear in the text.
package enum JSONDuplicateKeys {
    /// The first key that one object of `data` holds twice, decoded (`"a"` and `"\u0061"`
    /// are the same key); nil when there is none, or when `data` is not JSON (which the
    /// decoder then reports).
    package static func first(in data: Data) -> String? {
        let bytes = [UInt8](data)
        // One entry per open object (its keys so far) or array (nil).
        var open: [Set<String>?] = []
        var expectingKey = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                open.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                open.append(nil)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = open.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                guard let (text, end) = string(in: bytes, from: index) else { return nil }
                if expectingKey, let last = open.indices.last, var keys = open[last] {
                    guard keys.insert(text).inserted else { return text }
                    open[last] = keys
                }
                expectingKey = false
                index = end
                continue
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The UTF-16 unit of each one-letter escape, by its letter.
    private static let escapes: [UInt8: UInt16] = [
        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
        UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    /// The string whose opening quote is at `start`, decoded, and the index after its
    /// closing quote; nil when it is not a valid JSON string.
    private static func string(in bytes: [UInt8], from start: Int) -> (String, Int)? {
        var units: [UInt16] = []
        var raw: [UInt8] = []
        var index = start + 1
        func flushRaw() {
            units.append(contentsOf: String(decoding: raw, as: UTF8.self).utf16)
            raw.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRaw()
                return (String(decoding: units, as: UTF16.self), index + 1)
            }
            guard byte == UInt8(ascii: "\\") else {
                raw.append(byte)
                index += 1
                continue
            }
            flushRaw()
            guard index + 1 < bytes.count else { return nil }
            let escaped = bytes[index + 1]
            if let unit = escapes[escaped] {
                units.append(unit)
                index += 2
            } else if escaped == UInt8(ascii: "u"), index + 6 <= bytes.count,
                let unit = UInt16(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
            {
                units.append(unit)
                index += 6
            } else {
                return nil
            }
        }
        return nil
    }
}
