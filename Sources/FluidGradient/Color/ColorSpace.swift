/// The RGB space a frame is written in (DESIGN section 13): its primaries, with the
/// sRGB transfer function, which Display P3 shares. Colours outside it are brought
/// into it by CSS Color 4's gamut mapping.
public enum ColorSpace: String, CaseIterable, Sendable {
    /// sRGB, the web's default and what an untagged file means.
    case srgb
    /// Display P3: the wider gamut of current Apple screens and most phones (DCI-P3
    /// primaries, D65 white), tagged as such in every file.
    case displayP3 = "display-p3"
}
