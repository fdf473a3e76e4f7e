import FluidGradientIO

/// A job the manager accepted: the preset to render (its duration and fps applied) and how.
package struct JobSpec: Sendable {
    /// The preset, with the request's duration and fps.
    package var preset: Preset
    /// What to write.
    package var format: JobFormat
    /// At which size to encode: `.auto` or `.full` (DESIGN section 10, "Encode size").
    package var encodeSize: EncodeSizeRequest
    /// How the job fits the budgets; nil for a job taken without a plan (it is then
    /// counted as needing no memory, and a bundle encodes everything at once).
    package var plan: JobPlan?

    /// A job of `preset` (its duration and fps are the job's) as `format`, encoded at `encodeSize`.
    package init(preset: Preset, format: JobFormat, encodeSize: EncodeSizeRequest) {
        self.preset = preset
        self.format = format
        self.encodeSize = encodeSize
    }

    /// The downloaded file's name: the preset's name kept to safe characters, or `fluidgradient`.
    package var fileName: String {
        let safe = preset.name.unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_".unicodeScalars.contains($0)
        }
        let stem = safe.isEmpty ? "fluidgradient" : String(String.UnicodeScalarView(safe.prefix(64)))
        return stem + "." + format.fileExtension
    }
}
