extension PresetField {
    /// Reads the key's value from a file into `preset`, checked against its bounds.
    ///
    /// - Parameters:
    ///   - node: the key's value.
    ///   - path: its key path.
    ///   - reader: reads values, naming the file in errors.
    ///   - preset: where the value goes.
    /// - Throws: ``PresetError`` when the value is of the wrong type or out of bounds.
    func read(
        _ node: JSONNode, at path: JSONPath, reader: JSONReader, into preset: inout Preset
    ) throws(PresetError) {
        switch kind {
        case .text(let keyPath): preset[keyPath: keyPath] = try reader.string(node, at: path)
        case .number(let keyPath, let bounds): preset[keyPath: keyPath] = try reader.number(node, at: path, in: bounds)
        case .range(let keyPath, let bounds): preset[keyPath: keyPath] = try reader.range(node, at: path, in: bounds)
        case .boolean(let keyPath): preset[keyPath: keyPath] = try reader.bool(node, at: path)
        case .seed: preset.seed = UInt64(try reader.integer(node, at: path, in: PresetLimits.seed))
        case .colors:
            preset.colors = try reader.colors(node, at: path, count: PresetLimits.colorCount)
            preset.blobs = nil
        case .highlights:
            preset.highlights = try reader.colors(node, at: path, count: 0...PresetLimits.colorCount.upperBound)
            preset.highlightBlobs = nil
        case .background: preset.background = try reader.fill(node, at: path)
        case .edges:
            let text = try reader.string(node, at: path)
            guard let mode = EdgeMode(rawValue: text) else {
                let allowed = EdgeMode.allCases.map(\.rawValue)
                throw reader.error(path, node, .notOneOf(text, kind: "an edge mode", allowed: allowed))
            }
            preset.edges = mode
        case .colorSpace:
            preset.colorSpace = try reader.choice(node, at: path, kind: "a colour space")
        case .mixing:
            preset.mixing = try reader.choice(node, at: path, kind: "a mixing space")
        case .size:
            let text = try reader.string(node, at: path)
            guard let size = PresetLimits.parseSize(text) else { throw reader.error(path, node, .notASize(text)) }
            if let problem = PresetLimits.checkSize(width: size.width, height: size.height) {
                throw reader.error(path, node, problem)
            }
            (preset.width, preset.height) = size
        case .blobs: preset.blobs = try Preset.readBlobs(node, reader: reader, path: path, highlights: false)
        case .highlightBlobs:
            preset.highlightBlobs = try Preset.readBlobs(node, reader: reader, path: path, highlights: true)
        case .grain: preset.grain = try reader.grain(node, at: path)
        }
    }

    /// Checks the key's value in a preset built in code against the bounds a file's is held to.
    ///
    /// - Parameter preset: the preset, whose name errors give as the file.
    /// - Throws: ``PresetError`` naming the key as a file's error would.
    func check(_ preset: Preset) throws(PresetError) {
        let path: JSONPath = [.key(key)]
        let checker = PresetChecker(file: preset.name)
        switch kind {
        case .text, .boolean, .edges, .colorSpace, .mixing: return
        case .number(let keyPath, let bounds): try checker.check(preset[keyPath: keyPath], path, bounds)
        case .range(let keyPath, let bounds): try checker.check(preset[keyPath: keyPath], path, bounds)
        case .seed:
            guard Double(preset.seed) <= PresetLimits.seed.upperBound else {
                throw checker.failure(path, .outOfRange(String(preset.seed), allowed: PresetLimits.seed))
            }
        case .colors:
            if preset.blobs == nil, !PresetLimits.colorCount.contains(preset.colors.count) {
                let reason = PresetError.Reason.wrongCount(
                    found: preset.colors.count, allowed: PresetLimits.colorCount, blobs: false)
                throw checker.failure(path, reason)
            }
            try checker.check(preset.colors, path)
        case .highlights:
            let allowed = 0...PresetLimits.colorCount.upperBound
            if preset.highlightBlobs == nil, !allowed.contains(preset.highlights.count) {
                throw checker.failure(path, .wrongCount(found: preset.highlights.count, allowed: allowed, blobs: false))
            }
            try checker.check(preset.highlights, path)
        case .background: try checker.check(preset.background, path)
        case .size:
            if let problem = PresetLimits.checkSize(width: preset.width, height: preset.height) {
                throw checker.failure(path, problem)
            }
        case .blobs:
            if let blobs = preset.blobs { try checker.check(blobs, path, highlights: false) }
        case .highlightBlobs:
            if let blobs = preset.highlightBlobs { try checker.check(blobs, path, highlights: true) }
        case .grain:
            try checker.check(preset.grain.amount, path + [.key("amount")], PresetLimits.grainAmount)
            try checker.check(preset.grain.size, path + [.key("size")], PresetLimits.grainSize)
        }
    }
}

/// Checks values built in code, naming the preset as the file of its errors.
private struct PresetChecker {
    let file: String

    func failure(_ path: JSONPath, _ reason: PresetError.Reason) -> PresetError {
        PresetError(file: file, path: path, reason: reason)
    }

    func check(_ value: Double, _ path: JSONPath, _ bounds: ClosedRange<Double>) throws(PresetError) {
        guard bounds.contains(value) else {
            throw failure(path, .outOfRange(ParameterRange.format(value), allowed: bounds))
        }
    }

    func check(_ range: ParameterRange, _ path: JSONPath, _ bounds: ClosedRange<Double>) throws(PresetError) {
        if let problem = PresetLimits.rangeProblem(range, within: bounds) {
            throw failure(path + (problem.part.map { [.key($0)] } ?? []), problem.reason)
        }
    }

    func check(_ color: RGBA, _ path: JSONPath) throws(PresetError) {
        // A CSS Color 4 function may name a colour outside sRGB: extended sRGB, mapped when drawn.
        guard color.written == nil else { return }
        let channels = [("red", color.red), ("green", color.green), ("blue", color.blue), ("alpha", color.alpha)]
        for (channel, value) in channels where !(0...1).contains(value) {
            throw failure(path, .channelOutOfRange(channel: channel, value: value))
        }
    }

    func check(_ colors: [RGBA], _ path: JSONPath) throws(PresetError) {
        for (index, color) in colors.enumerated() { try check(color, path + [.index(index)]) }
    }

    func check(_ fill: Fill, _ path: JSONPath) throws(PresetError) {
        switch fill {
        case .color(let color): try check(color, path)
        case .gradient(let gradient):
            // A Gradient already holds 2 or more stops, at clamped locations.
            try check(gradient.angle, path + [.key("angle")], PresetLimits.gradientAngle)
            for (index, stop) in gradient.stops.enumerated() {
                try check(stop.color, path + [.key("stops"), .index(index), .key("color")])
            }
        }
    }

    func check(_ blobs: [Blob], _ path: JSONPath, highlights: Bool) throws(PresetError) {
        if let problem = PresetLimits.checkBlobCount(blobs.count, highlights: highlights) {
            throw failure(path, problem)
        }
        for (index, blob) in blobs.enumerated() {
            let blobPath = path + [.index(index)]
            for (key, pair) in [("center", blob.center), ("radius", blob.radius)] {
                try check(pair.x, blobPath + [.key(key), .index(0)], PresetLimits.blobCoordinate)
                try check(pair.y, blobPath + [.key(key), .index(1)], PresetLimits.blobCoordinate)
            }
            try check(blob.opacity, blobPath + [.key("opacity")], PresetLimits.opacity)
            try check(blob.color, blobPath + [.key("color")])
        }
    }
}
