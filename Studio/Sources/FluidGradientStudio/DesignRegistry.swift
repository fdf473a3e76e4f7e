import FluidGradientIO
import Foundation

/// A checked preset under its content address: what `/v1/designs/{id}` names.
package struct Design: Sendable {
    /// The content address: SHA-256 of the engine version, a newline and the normalized
    /// preset JSON with `name` and `description` blanked (they change no pixel), in hex.
    package let id: String
    /// The preset, checked.
    package let preset: Preset
    /// The normalized preset JSON (``Preset/jsonText``), as the API returns it.
    package let json: String

    /// The design of `preset`, with its address.
    ///
    /// - Parameter preset: a checked preset.
    package init(preset: Preset) {
        var anonymous = preset
        anonymous.name = ""
        anonymous.description = ""
        id = SHA256.hex(Preset.engineVersion + "\n" + anonymous.jsonText)
        self.preset = preset
        json = preset.jsonText
    }
}

/// The designs the service knows: the built-in presets, always, and the posted designs
/// up to a bound, the least recently used dropped first (a client posts it again).
package final class DesignRegistry: Sendable {
    /// The built-in presets' designs, by preset name, in name order.
    package let builtIn: [(name: String, design: Design)]
    private let builtInByName: [String: Design]
    private let builtInByID: [String: Design]
    private let posted: LRUCache<String, Design>

    /// A registry holding the built-in presets.
    ///
    /// - Parameter capacity: how many posted designs are kept.
    package init(capacity: Int) {
        builtIn = Preset.builtInNames.compactMap { name in
            (try? Preset(builtIn: name)).map { (name, Design(preset: $0)) }
        }
        builtInByName = Dictionary(builtIn.map { ($0.name, $0.design) }, uniquingKeysWith: { first, _ in first })
        builtInByID = Dictionary(builtIn.map { ($0.design.id, $0.design) }, uniquingKeysWith: { first, _ in first })
        posted = LRUCache(capacity: max(1, capacity))
    }

    /// Registers `preset` (again) and returns its design.
    ///
    /// - Parameter preset: a checked preset.
    /// - Returns: its design, now the most recently used.
    package func register(_ preset: Preset) -> Design {
        let design = Design(preset: preset)
        if builtInByID[design.id] == nil { posted.insert(design, for: design.id, cost: 1) }
        return design
    }

    /// The design with address `id`, or nil when it is unknown or was dropped.
    package func design(id: String) -> Design? { builtInByID[id] ?? posted.value(for: id) }

    /// The design of the built-in preset `name`, or nil.
    package func builtIn(named name: String) -> Design? { builtInByName[name] }
}
