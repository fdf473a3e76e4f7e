import FluidGradient

/// `count` and its noun, singular or plural: "1 frame", "18 jobs", "0.5 levels".
public func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

public func counted(_ amount: Double, _ noun: String) -> String {
    "\(ParameterRange.format(amount)) \(noun)\(amount == 1 ? "" : "s")"
}
