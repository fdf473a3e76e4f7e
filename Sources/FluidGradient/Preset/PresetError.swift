/// A preset or palette that cannot be used: the file, the line, the key path and why.
///
/// Nothing is rendered from a document that fails: reading a preset either gives a whole
/// preset or throws this. ``description`` renders it as one line in the form editors and
/// terminals jump to: `file:line: key.path: reason`.
public struct PresetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named it; for a preset built in code, its name.
    public var file: String
    /// The line where the value at ``path`` starts, from 1; nil for the document as a
    /// whole and where there is no text to point at (a preset built in code, a file that
    /// is not text).
    public var line: Int?
    /// The key path of the value at fault, such as `blobs`, `2`, `center`; empty for the
    /// document itself.
    public var path: [PathComponent]
    /// Why the value cannot be used.
    public var reason: Reason

    /// Describes a problem with a preset or palette.
    ///
    /// - Parameters:
    ///   - file: the file as the user named it.
    ///   - line: the line of the value at fault, when there is one.
    ///   - path: the key path of the value at fault.
    ///   - reason: why it cannot be used.
    public init(file: String, line: Int? = nil, path: [PathComponent] = [], reason: Reason) {
        self.file = file
        self.line = line
        self.path = path
        self.reason = reason
    }

    /// One step of a key path.
    public enum PathComponent: Hashable, Sendable {
        /// A member of an object, by key.
        case key(String)
        /// An element of an array, from 0.
        case index(Int)
    }

    /// Why a value cannot be used. Numbers a file wrote are kept as written, so a message
    /// quotes them exactly.
    public enum Reason: Equatable, Sendable {
        /// The text is not JSON: what the parser expected, at this column (from 1) of
        /// the error's line.
        case malformedJSON(column: Int, detail: String)
        /// The value has another JSON type: `expected` and `found` as a message names
        /// them (`"a number"`, `"a string"`).
        case wrongType(expected: String, found: String)
        /// An object holds a key it may not; `suggestion` is the allowed key it is
        /// closest to, when one is close.
        case unknownKey(String, suggestion: String?, allowed: [String])
        /// A number, as written, outside the key's allowed bounds.
        case outOfRange(String, allowed: ClosedRange<Double>)
        /// A number, as written, where a whole number is needed.
        case notWholeNumber(String)
        /// Text that is not a colour; `suggestion` is the CSS name it is closest to.
        case notAColor(String, suggestion: String?)
        /// A CSS Color 4 function (`rgb()`, `oklch()`, `color()` …) that cannot be read:
        /// `problem` says why, quoting the part at fault.
        case malformedColor(String, problem: String)
        /// A colour built in code with a channel (`red`, `green`, `blue`, `alpha`)
        /// outside 0...1.
        case channelOutOfRange(channel: String, value: Double)
        /// A list of colours (or, with `blobs` set, of explicit blobs) whose length is not
        /// in `allowed`.
        case wrongCount(found: Int, allowed: ClosedRange<Int>, blobs: Bool)
        /// A range whose `min` is greater than its `max`.
        case minAboveMax(min: Double, max: Double)
        /// A range whose `step` is 0.
        case stepNotPositive
        /// A range object without `min` or `max`.
        case rangeNeedsMinAndMax
        /// A point or radius that is not two numbers `[x, y]`; `count` is how many
        /// values the array holds.
        case notAPair(count: Int)
        /// Text that is none of the values a key allows: `kind` names what was expected
        /// (`"an edge mode"`), `allowed` lists the values.
        case notOneOf(String, kind: String, allowed: [String])
        /// A size that is not `WIDTHxHEIGHT`.
        case notASize(String)
        /// A size with a side outside 1...16384 pixels.
        case unusableSize(width: Int, height: Int)
        /// A size of more than 8192×8192 pixels in all.
        case sizeTooLarge(width: Int, height: Int)
        /// A preset with neither `colors` nor `blobs`.
        case missingColors
        /// An explicit blob without one of `color`, `center` and `radius`.
        case blobNeeds(String)
        /// A background that is neither a colour string nor a gradient object; `found`
        /// names what it is.
        case notAFill(found: String)
        /// A gradient object without `stops`.
        case gradientNeedsStops
        /// A gradient stop without `color`.
        case stopNeedsColor
        /// A gradient with fewer than 2 stops.
        case tooFewStops(Int)
        /// Gradient stops of which some have a location and some do not.
        case mixedStopLocations
        /// A palette file, named as the user named it, that is a PNG image, whose colours
        /// `fluidgradient palette` would take.
        case imageNotPalette(file: String)
        /// A palette file that is not UTF-8 text.
        case notText
        /// A palette line holding two colours.
        case twoColorsOnALine(String, String)
        /// A palette file's list of colours of a length outside `allowed`.
        case paletteCount(found: Int, allowed: ClosedRange<Int>)
        /// A palette file's list entry, an object, without `color`.
        case paletteEntryNeedsColor
        /// A `grain` object without `amount`.
        case grainNeedsAmount
    }

    /// `file:line: key.path: reason`, leaving out what is not there.
    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        let path = PresetError.text(of: path)
        return [place, path, reason.description].filter { !$0.isEmpty }.joined(separator: ": ")
    }

    /// The key path of the value at fault as messages write it, such as
    /// `blobSize.min` or `colors[2]`; empty for the document itself.
    public var keyPath: String { Self.text(of: path) }

    /// A key path as messages write it: `blobs[2].center`, `[0].color`.
    package static func text(of path: [PathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
