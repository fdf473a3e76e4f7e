import FluidGradientIO
import Foundation

extension JobRequest {
    /// The job this request asks for, checked against `limits`.
    ///
    /// - Parameters:
    ///   - limits: the frames and pixels a job may have.
    ///   - design: looks a design up by its id; nil when it is unknown.
    /// - Returns: the preset to render, with this request's duration and fps, and how.
    /// - Throws: ``JobProblem`` 400 for a field that is not one of its values, 404 for an
    ///   unknown design or preset, 422 for a job over the limits or budgets (``JobPlan``) or
    ///   a duration or fps out of the library's bounds.
    package func spec(limits: JobLimits, design: (String) -> Preset?) throws(JobProblem) -> JobSpec {
        guard let format = JobFormat(rawValue: format) else {
            throw Self.badField("format", value: format, allowed: JobFormat.allCases.map(\.rawValue))
        }
        // The library reads `--encode-size`'s words; a job takes its two that need no size.
        let encodeSize = try? EncodeSizeRequest(parsing: self.encodeSize ?? "auto")
        guard let encodeSize, encodeSize == .auto || encodeSize == .full else {
            throw Self.badField("encodeSize", value: self.encodeSize ?? "", allowed: ["auto", "full"])
        }
        var preset = try resolve(design: design)
        if let duration { preset.duration = try Self.positive(duration, "duration") }
        if let fps { preset.fps = try Self.positive(fps, "fps") }
        if let refusal = limits.refusal(of: preset) { throw refusal }
        try Self.check(preset)
        var spec = JobSpec(preset: preset, format: format, encodeSize: encodeSize)
        spec.plan = try JobPlan(preset: preset, format: format, encodeSize: encodeSize, limits: limits)
        return spec
    }

    /// Checks the preset with the new duration and fps as the library checks a preset file,
    /// so that a value out of its bounds is refused now rather than failing the job.
    private static func check(_ preset: Preset) throws(JobProblem) {
        do {
            _ = try Preset(json: Data(preset.jsonText.utf8), file: "request")
        } catch {
            throw JobProblem.unprocessable(
                slug: "invalid-job", title: "The job's preset is not valid", detail: error.description)
        }
    }

    /// The preset named by `design` or `preset`: exactly one of them.
    private func resolve(design lookUp: (String) -> Preset?) throws(JobProblem) -> Preset {
        switch (design, preset) {
        case (let id?, nil):
            guard let preset = lookUp(id) else {
                throw JobProblem(
                    slug: "unknown-design", title: "Unknown design", status: 404,
                    detail: "There is no design \(id); post its preset to /v1/designs again.")
            }
            return preset
        case (nil, let name?):
            do {
                return try Preset(builtIn: name)
            } catch {
                throw JobProblem(
                    slug: "unknown-preset", title: "Unknown preset", status: 404,
                    detail: "There is no built-in preset \(name)."
                        + (error.suggestion.map { " Did you mean \($0)?" } ?? ""))
            }
        default:
            throw JobProblem(
                slug: "bad-request", title: "Bad request", status: 400,
                detail: "Give either \"design\" (a design id) or \"preset\" (a built-in preset's name).")
        }
    }

    private static func positive(_ value: Double, _ key: String) throws(JobProblem) -> Double {
        guard value.isFinite, value > 0 else {
            throw JobProblem.unprocessable(
                slug: "bad-value", title: "Value out of range", detail: "\(key) must be above 0, not \(format(value)).")
        }
        return value
    }

    private static func badField(_ key: String, value: String, allowed: [String]) -> JobProblem {
        JobProblem(
            slug: "bad-request", title: "Bad request", status: 400,
            detail: "\(key) \"\(value)\" is not one of " + allowed.joined(separator: ", ") + ".")
    }

    static func format(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
