import ArgumentParser
import FluidGradient
import Foundation

/// An option's value refused while the arguments are parsed, with the reason in our words.
///
/// The argument parser words a value its `transform` throws for as its own message; so a
/// refusal is also kept here (``first``), and the error line says it instead, naming the
/// option as it was typed.
struct OptionValueError: FluidGradientError {
    /// True: the option's value is the user's (exit status 2).
    var isInputError: Bool { true }

    /// Why a value is refused.
    enum Reason: Equatable {
        /// It is plainly the next option (`--fps`), so the value was left out.
        case nextOption
        /// A whole number larger than the option's type holds.
        case tooLarge
        /// A negative whole number beyond 64 bits.
        case outOfRange
        /// A negative number where the option takes none.
        case negative
        /// A number with a fraction where the option takes whole numbers.
        case notWhole
        /// Not a number at all.
        case notANumber
    }

    /// The option as typed (`--seed`, `-n`), or nil when it cannot be told.
    var option: String?
    /// The value as typed.
    var value: String
    var reason: Reason

    var description: String {
        let why =
            switch reason {
            case .nextOption: "is the next option; give a value first"
            case .tooLarge: "is too large"
            case .outOfRange: "is out of range"
            case .negative: "cannot be negative"
            case .notWhole: "is not a whole number"
            case .notANumber: "is not a number"
            }
        return (option.map { "\($0): " } ?? "") + "'\(value)' \(why)"
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var recorded: OptionValueError?

    /// Keeps the first refusal of the parse, and returns it to throw.
    static func refuse(_ value: String, _ reason: Reason) -> OptionValueError {
        let refusal = OptionValueError(option: nil, value: value, reason: reason)
        lock.withLock { if recorded == nil { recorded = refusal } }
        return refusal
    }

    /// The first refusal of the parse, naming the option that `arguments` give the value to.
    ///
    /// - Parameter arguments: the command line, as the parser read it.
    /// - Returns: the refusal, or nil when every value was taken.
    static func first(in arguments: [String]) -> OptionValueError? {
        guard var refusal = lock.withLock({ recorded }) else { return nil }
        for (index, word) in arguments.enumerated() {
            if index > 0, word == refusal.value, arguments[index - 1].hasPrefix("-") {
                refusal.option = arguments[index - 1]
                break
            }
            if word.hasPrefix("--"), word.hasSuffix("=" + refusal.value) {
                refusal.option = String(word.dropLast(refusal.value.count + 1))
                break
            }
        }
        return refusal
    }
}

/// An option's value read as a number of type `Number`: the `transform` of every number
/// option, so that a refusal says why.
///
/// - Parameter text: the value as typed.
/// - Returns: the number.
/// - Throws: ``OptionValueError`` (recorded) when `text` is the next option or not such a number.
func number<Number: LosslessStringConvertible>(_ text: String) throws -> Number {
    if isNextOption(text) { throw OptionValueError.refuse(text, .nextOption) }
    if let value = Number(text) { return value }
    let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
        // A whole number the type cannot hold: negative where it must not be, or beyond 64 bits.
        let reason: OptionValueError.Reason =
            !text.hasPrefix("-") ? .tooLarge : Int64(text) == nil ? .outOfRange : .negative
        throw OptionValueError.refuse(text, reason)
    }
    throw OptionValueError.refuse(text, Double(text) != nil ? .notWhole : .notANumber)
}

/// Whether a word taken as an option's value is plainly the next option (`--fps`), not a
/// value that starts with a dash (`-5x5`, `-crf 23`).
func isNextOption(_ word: String) -> Bool {
    word.hasPrefix("--") && word.dropFirst(2).first?.isLetter == true
}
