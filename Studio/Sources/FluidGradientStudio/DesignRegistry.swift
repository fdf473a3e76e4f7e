import FluidGradientIO
import Foundation

/// A checked preset under its content address: what `/v1/designs/{id}` names.
package struct Design: Sendable {
    /// The content address: SHA-256 of the engine version, a newline and the normalized
    /// preset JSON, in hex. The name and description are part of it, so a design never
    /// changes under its id: the same preset posted with another name is another design.
    package let id: String
    /// The address of the pixels: the same hash with `name` and `description` blanked
    /// (they change no pixel), which keys the frame cache and the frames' entity tags, so
    /// that designs differing only in their names share their frames.
    package let pixelID: String
    /// The preset, checked.
    package let preset: Preset
    /// The normalized preset JSON (``Preset/jsonText``), as the API returns it.
    package let json: String

    /// The design of `preset`, with its addresses.
    ///
    /// - Parameter preset: a checked preset.
    package init(preset: Preset) {
        var anonymous = preset
        anonymous.name = ""
        anonymous.description = ""
        json = preset.jsonText
        id = SHA256.hex(Preset.engineVersion + "\n" + json)
        pixelID = SHA256.hex(Preset.engineVersion + "\n" + anonymous.jsonText)
        self.preset = preset
    }

    /// The bytes the design holds in memory, as the registry counts them against its
    /// budget: its JSON text and the preset's parsed copy of the same (the name and
    /// description once more), and a fixed part for the rest.
    var bytes: Int { 2 * json.utf8.count + 4096 }
}

/// The designs the service knows: the built-in presets, always, and the posted designs
/// up to a budget of bytes, the least recently used dropped first (a client posts it
/// again).
package final class DesignRegistry: Sendable {
    /// The built-in presets' designs, by preset name, in name order.
    package let builtIn: [(name: String, design: Design)]
    private let builtInByName: [String: Design]
    private let builtInByID: [String: Design]
    private let posted: LRUCache<String, Design>

    /// A registry holding the built-in presets.
    ///
    /// - Parameter bytes: the budget of the posted designs, in bytes (``Design/bytes``).
    package init(bytes: Int) {
        builtIn = Preset.builtInNames.compactMap { name in
            (try? Preset(builtIn: name)).map { (name, Design(preset: $0)) }
        }
        builtInByName = Dictionary(builtIn.map { ($0.name, $0.design) }, uniquingKeysWith: { first, _ in first })
        builtInByID = Dictionary(builtIn.map { ($0.design.id, $0.design) }, uniquingKeysWith: { first, _ in first })
        posted = LRUCache(capacity: max(1, bytes))
    }

    /// Registers `preset` (again) and returns its design.
    ///
    /// - Parameter preset: a checked preset.
    /// - Returns: its design, now the most recently used.
    package func register(_ preset: Preset) -> Design {
        let design = Design(preset: preset)
        if builtInByID[design.id] == nil { posted.insert(design, for: design.id, cost: design.bytes) }
        return design
    }

    /// The design with address `id`, or nil when it is unknown or was dropped.
    package func design(id: String) -> Design? { builtInByID[id] ?? posted.value(for: id) }

    /// The design of the built-in preset `name`, or nil.
    package func builtIn(named name: String) -> Design? { builtInByName[name] }

    /// How many posted designs are kept, and the bytes they count for.
    package var usage: (count: Int, bytes: Int) {
        let usage = posted.usage
        return (usage.count, usage.cost)
    }
}
