/// Grain: an exactly defined noise layer, overlay-blended onto the frame after the
/// background and before quantisation (DESIGN section 12).
///
/// A preset without grain, or with an ``amount`` of 0, renders the same bytes as before
/// grain existed.
///
/// ```swift
/// preset.grain = Grain(amount: 0.08)
/// ```
public struct Grain: Hashable, Sendable {
    /// How strong the grain is, 0...1: the grey layer's values span `0.5 ± amount/2`.
    /// 0 is no grain.
    public var amount: Double
    /// The side of a grain cell in points, 0.5...8: each cell is `size × pointScale` pixels.
    public var size: Double
    /// Whether the grain moves: 8 phases, frame `k` showing phase `k mod 8`. Still grain
    /// shows phase 0 on every frame.
    public var animated: Bool
    /// Whether red, green and blue share one noise value (grey grain) or each has its own.
    public var mono: Bool

    /// Grain with the given settings; every default is the preset file's.
    ///
    /// - Parameters:
    ///   - amount: How strong the grain is, 0...1; 0 (the default) is no grain.
    ///   - size: The side of a grain cell in points, 0.5...8 (default 1).
    ///   - animated: Whether the grain moves, in 8 phases (default false).
    ///   - mono: Whether the channels share one noise value (default true).
    public init(amount: Double = 0, size: Double = 1, animated: Bool = false, mono: Bool = true) {
        self.amount = amount
        self.size = size
        self.animated = animated
        self.mono = mono
    }

    /// Whether the grain changes any pixel.
    package var isOn: Bool { amount > 0 }
}
