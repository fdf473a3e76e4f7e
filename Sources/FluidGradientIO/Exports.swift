// The engine's types (`Preset`, `Frame`, `RGBA`, ...) come with this module, so that one
// `import FluidGradientIO` is enough for an embed.
@_exported import FluidGradient
