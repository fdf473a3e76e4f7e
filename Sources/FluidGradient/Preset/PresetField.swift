import Foundation

/// One key of the preset file contract (DESIGN section 8): what it holds, its bounds,
/// the command-line option that overrides it, where a batch manifest may set it and how
/// `presets show` prints it. ``PresetSchema/fields`` lists them all; reading, checking
/// and writing a preset go through that list.
///
/// A key's default is the value ``Preset/init(colors:highlights:)`` gives it.
package struct PresetField: Sendable {
    /// What a key holds, and where in ``Preset`` it goes.
    package enum Kind: Sendable {
        /// A string.
        case text(WritableKeyPath<Preset, String> & Sendable)
        /// A number inside `bounds`.
        case number(WritableKeyPath<Preset, Double> & Sendable, bounds: ClosedRange<Double>)
        /// A range `{ "min", "max", "step" }` inside `bounds`.
        case range(WritableKeyPath<Preset, ParameterRange> & Sendable, bounds: ClosedRange<Double>)
        /// true or false.
        case boolean(WritableKeyPath<Preset, Bool> & Sendable)
        /// A whole number that a JSON number holds exactly.
        case seed
        /// The base colours, which replace explicit base blobs.
        case colors
        /// The highlight colours, which replace explicit highlight blobs.
        case highlights
        /// A colour or a gradient.
        case background
        /// An ``EdgeMode`` by name.
        case edges
        /// A ``ColorSpace`` by name.
        case colorSpace
        /// A ``MixingSpace`` by name.
        case mixing
        /// `WIDTHxHEIGHT`.
        case size
        /// Explicit base blobs.
        case blobs
        /// Explicit highlight blobs.
        case highlightBlobs
        /// Grain: `{ "amount", "size", "animated", "mono" }`.
        case grain
    }

    /// Where a batch manifest may give a key.
    package enum ManifestUse: Sendable {
        /// In `defaults` and in each palette.
        case shared
        /// Only in a palette: what makes one palette differ from another.
        case palette
        /// Not as a preset key (the manifest's own `sizes` and palette `name` set it).
        case none
    }

    /// How `presets show` prints a key: on a line of its own, in `rank` order.
    package struct Display: Sendable {
        package var label: String
        package var rank: Int
        package var text: @Sendable (Preset) -> String
    }

    /// The key in a preset file.
    package var key: String
    package var kind: Kind
    /// The command-line option that overrides the key, without its dashes; nil for none.
    package var option: String? = nil
    /// What the key means, as the option's help says it (its bounds and default follow).
    package var doc: String
    /// The option's value name in help, such as `MIN...MAX[/STEP]`.
    package var valueName: String? = nil
    package var manifest: ManifestUse = .shared
    /// nil for keys `presets show` lays out itself (colours, blobs, background).
    package var display: Display? = nil

    /// The option's help: ``doc``, then the bounds, and for a range its default.
    package var help: String {
        let defaults = Preset.defaults
        switch kind {
        case .number(_, let bounds):
            return "\(doc) (\(ParameterRange(bounds)))."
        case .range(let keyPath, let bounds):
            return "\(doc) (bounds \(ParameterRange(bounds)); in a preset file that leaves it out, "
                + "\(defaults[keyPath: keyPath]))."
        default:
            return doc + "."
        }
    }
}

extension Preset {
    /// A preset with every key at its default.
    package static let defaults = Preset(colors: [])
}
