import ArgumentParser
import FluidGradient

/// The options that set the preset's `grain` (DESIGN section 12): its amount, the size of
/// a cell, whether it moves, and whether the channels share it.
struct GrainOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: grainHelp, transform: number)
    var grain: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Side of a grain cell in points (\(ParameterRange(PresetLimits.grainSize)); default 1): "
                + "cells are this times the point scale in pixels.", valueName: "POINTS"),
        transform: number)
    var grainSize: Double?

    @Flag(
        inversion: .prefixedNo,
        help: "Move the grain: 8 phases, frame k showing phase k mod 8 (default: still grain).")
    var grainAnimated: Bool?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "One noise value for red, green and blue, a grey grain (the default); --no-grain-mono gives "
                + "each channel its own."))
    var grainMono: Bool?

    /// Sets the grain options given on `preset`, each held to its key's bounds.
    ///
    /// - Throws: ``SceneOptionError`` naming the option whose value is outside its bounds.
    func apply(to preset: inout Preset) throws(SceneOptionError) {
        if let grain { preset.grain.amount = try check(grain, "grain", PresetLimits.grainAmount) }
        if let grainSize { preset.grain.size = try check(grainSize, "grain-size", PresetLimits.grainSize) }
        if let grainAnimated { preset.grain.animated = grainAnimated }
        if let grainMono { preset.grain.mono = grainMono }
    }
}

private let grainHelp: ArgumentHelp = {
    let field = PresetSchema.field("grain")
    return ArgumentHelp(field.help, valueName: field.valueName)
}()
