import FluidGradient

/// A batch manifest that cannot be used: a preset key or value in it (or its JSON), or
/// the manifest's own structure.
package enum BatchManifestError: FluidGradientError, Equatable {
    /// A value read as a preset's would be (or the JSON itself) is at fault.
    case preset(PresetError)
    /// The manifest's structure is at fault, at this place.
    case manifest(file: String, line: Int?, path: JSONPath, problem: Problem)

    /// What is wrong with the manifest's structure.
    package enum Problem: Equatable, Sendable {
        /// A required list (`palettes`, `sizes`, `formats`) is absent; `hint` says what it holds.
        case missingList(String, hint: String)
        /// A list is empty; `item` names one of its entries.
        case emptyList(item: String)
        /// Two palettes have one name; `first` is the index of the earlier.
        case duplicateName(String, first: Int)
        /// A size is listed twice.
        case duplicateSize(width: Int, height: Int, first: Int)
        /// A format is listed twice.
        case duplicateFormat(String, first: Int)
        /// The output template gives two jobs one path; `missing` are the placeholders
        /// that would tell them apart.
        case sharedOutput(template: String, path: String, jobs: [String], missing: [String])
        /// The output template gives a job a file name that does not end in its format;
        /// `found` is the name's extension, empty for none.
        case wrongExtension(template: String, job: String, path: String, found: String, format: String)
        /// A `{` without its `}` in the output template.
        case unclosedPlaceholder(template: String)
        /// An empty template, or one naming a directory.
        case notATemplate
        /// A palette with none of `preset`, `palette`, `colors` and `blobs`.
        case paletteNeedsColors
        /// A palette with a `palette` file and `colors` or `blobs` (the key named).
        case twoColorSources(String)
        /// A palette with neither `preset` nor `name`.
        case paletteNeedsName
        /// A palette name that cannot be part of a path.
        case unusableName(String)
        /// An `encodeSize` that is not `auto`, `full` or `WxH`.
        case notAnEncodeSize(String)
    }

    /// True: a manifest is the caller's.
    package var isInputError: Bool { true }

    /// `file:line: key.path: reason`, as ``PresetError`` words its own.
    package var description: String {
        switch self {
        case .preset(let error):
            return error.description
        case .manifest(let file, let line, let path, let problem):
            let place = line.map { "\(file):\($0)" } ?? file
            return [place, PresetError.text(of: path), problem.description]
                .filter { !$0.isEmpty }.joined(separator: ": ")
        }
    }
}

extension BatchManifestError.Problem: CustomStringConvertible {
    /// The problem in English, without the place before it.
    package var description: String {
        switch self {
        case .missingList(let key, let hint): "missing: a manifest needs \"\(key)\", \(hint)"
        case .emptyList(let item): "expected at least one \(item)"
        case .duplicateName(let name, let first):
            "\"\(name)\" is already the name of palettes[\(first)]; give each palette its own name"
        case .duplicateSize(let width, let height, let first):
            "\(width)x\(height) is already sizes[\(first)]; list each size once"
        case .duplicateFormat(let format, let first): "\(format) is already formats[\(first)]; list each format once"
        case .sharedOutput(let template, let path, let jobs, let missing):
            "\"\(template)\" gives \(path) to both \(jobs.joined(separator: " and ")); "
                + "add \(missing.joined(separator: " or ")) so each output has its own path"
        case .wrongExtension(let template, let job, let path, let found, let format):
            "\"\(template)\" gives \(job) "
                + "\(found.isEmpty ? "a name without an extension" : "a .\(found) name"), \(path); "
                + "end the template in .{ext} (or .\(format))"
        case .unclosedPlaceholder(let template): "an unclosed \"{\" in \"\(template)\""
        case .notATemplate: "expected a file path template"
        case .paletteNeedsColors: "a palette needs \"preset\", \"palette\", \"colors\" or \"blobs\""
        case .twoColorSources(let key): "\"palette\" and \"\(key)\" both set the blob colours; give one"
        case .paletteNeedsName: "a palette without \"preset\" needs a \"name\""
        case .unusableName(let name): "\"\(name)\" is not a usable name: use letters, digits, '-', '_' and '.'"
        case .notAnEncodeSize(let text): "\"\(text)\" is not auto, full or a size such as 640x360"
        }
    }
}
