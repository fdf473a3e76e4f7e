extension Preset {
    /// Every key a preset file may hold, in the order `presets show` prints them.
    package static let keys = [
        "name", "description", "colors", "highlights", "background", "speed", "blur", "seed",
        "blobSize", "blobAspect", "opacity", "retargetInterval", "edges", "size", "fps", "duration",
        "loop", "pointScale", "blobs", "highlightBlobs",
    ]

    /// Reads and validates a preset file's contents. `file` is how errors name it.
    /// Nothing partial comes out: any problem is a ``PresetError``.
    package init(json bytes: [UInt8], file: String) throws(PresetError) {
        let reader = JSONReader(file: file)
        self = try Preset(node: try reader.parse(bytes), reader: reader, path: [])
    }

    /// Reads a preset from a parsed object at `path` (a manifest holds presets inline).
    package init(node: JSONNode, reader: JSONReader, path: JSONPath) throws(PresetError) {
        let object = try reader.object(node, at: path, allowed: Preset.keys)
        guard object["colors"] != nil || object["blobs"] != nil else {
            throw reader.error(object.path("colors"), node, .missingColors)
        }
        self.init(colors: [])
        try apply(object, reader: reader)
    }

    /// Sets every key present in `object` (already checked against ``keys``),
    /// leaving the others as they are.
    package mutating func apply(_ object: JSONObject, reader: JSONReader) throws(PresetError) {
        if let node = object["name"] { name = try reader.string(node, at: object.path("name")) }
        if let node = object["description"] { description = try reader.string(node, at: object.path("description")) }
        if let node = object["colors"] {
            colors = try reader.colors(node, at: object.path("colors"), count: PresetLimits.colorCount)
            blobs = nil
        }
        if let node = object["highlights"] {
            highlights = try reader.colors(node, at: object.path("highlights"), count: 0...PresetLimits.colorCount.upperBound)
            highlightBlobs = nil
        }
        if let node = object["background"] { background = try reader.fill(node, at: object.path("background")) }
        if let node = object["speed"] { speed = try reader.number(node, at: object.path("speed"), in: PresetLimits.speed) }
        if let node = object["blur"] { blur = try reader.number(node, at: object.path("blur"), in: PresetLimits.blur) }
        if let node = object["seed"] { seed = UInt64(try reader.integer(node, at: object.path("seed"), in: PresetLimits.seed)) }
        if let node = object["blobSize"] {
            ranges.size = try reader.range(node, at: object.path("blobSize"), in: PresetLimits.blobSize)
        }
        if let node = object["blobAspect"] {
            ranges.aspect = try reader.range(node, at: object.path("blobAspect"), in: PresetLimits.blobAspect)
        }
        if let node = object["opacity"] {
            ranges.opacity = try reader.range(node, at: object.path("opacity"), in: PresetLimits.opacity)
        }
        if let node = object["retargetInterval"] {
            ranges.retargetInterval = try reader.range(
                node, at: object.path("retargetInterval"), in: PresetLimits.retargetInterval)
        }
        if let node = object["edges"] {
            let text = try reader.string(node, at: object.path("edges"))
            guard let mode = EdgeMode(rawValue: text) else {
                let allowed = EdgeMode.allCases.map(\.rawValue)
                throw reader.error(object.path("edges"), node, .notOneOf(text, kind: "an edge mode", allowed: allowed))
            }
            edges = mode
        }
        if let node = object["size"] {
            let text = try reader.string(node, at: object.path("size"))
            guard let size = PresetLimits.parseSize(text) else {
                throw reader.error(object.path("size"), node, .notASize(text))
            }
            if let problem = PresetLimits.checkSize(width: size.width, height: size.height) {
                throw reader.error(object.path("size"), node, problem)
            }
            (width, height) = size
        }
        if let node = object["fps"] { fps = try reader.number(node, at: object.path("fps"), in: PresetLimits.fps) }
        if let node = object["duration"] {
            duration = try reader.number(node, at: object.path("duration"), in: PresetLimits.duration)
        }
        if let node = object["loop"] { loop = try reader.bool(node, at: object.path("loop")) }
        if let node = object["pointScale"] {
            pointScale = try reader.number(node, at: object.path("pointScale"), in: PresetLimits.pointScale)
        }
        if let node = object["blobs"] {
            blobs = try Preset.readBlobs(node, reader: reader, path: object.path("blobs"), highlights: false)
        }
        if let node = object["highlightBlobs"] {
            highlightBlobs = try Preset.readBlobs(
                node, reader: reader, path: object.path("highlightBlobs"), highlights: true)
        }
    }

    private static func readBlobs(
        _ node: JSONNode, reader: JSONReader, path: JSONPath, highlights: Bool
    ) throws(PresetError) -> [Blob] {
        let elements = try reader.array(node, at: path)
        if let problem = PresetLimits.checkBlobCount(elements.count, highlights: highlights) {
            throw reader.error(path, node, problem)
        }
        var blobs: [Blob] = []
        for (index, element) in elements.enumerated() {
            let blobPath = path + [.index(index)]
            let object = try reader.object(element, at: blobPath, allowed: ["color", "center", "radius", "opacity"])
            for key in ["color", "center", "radius"] where object[key] == nil {
                throw reader.error(blobPath, element, .blobNeeds(key))
            }
            blobs.append(
                Blob(
                    color: try reader.color(object["color"]!, at: object.path("color")),
                    center: try reader.pair(object["center"]!, at: object.path("center"), in: PresetLimits.blobCoordinate),
                    radius: try reader.pair(object["radius"]!, at: object.path("radius"), in: PresetLimits.blobCoordinate),
                    opacity: try object["opacity"].map { (node) throws(PresetError) in
                        try reader.number(node, at: object.path("opacity"), in: PresetLimits.opacity)
                    } ?? 1))
        }
        return blobs
    }
}

extension Preset {
    /// Checks a preset built in code against the bounds a preset file is held to (a file
    /// is checked as it is read): every number inside ``PresetLimits`` and finite, ranges
    /// in order, a usable size, and 1 to 64 colours or explicit blobs. The error names
    /// the key as a file's would, with the preset's name for the file.
    package func validate() throws(PresetError) {
        func failure(_ path: JSONPath, _ reason: PresetError.Reason) -> PresetError {
            PresetError(file: name, path: path, reason: reason)
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
            for (channel, value) in [("red", color.red), ("green", color.green), ("blue", color.blue), ("alpha", color.alpha)] {
                guard (0...1).contains(value) else {
                    throw failure(path, .channelOutOfRange(channel: channel, value: value))
                }
            }
        }
        func check(_ colors: [RGBA], _ path: JSONPath) throws(PresetError) {
            for (index, color) in colors.enumerated() { try check(color, path + [.index(index)]) }
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
        try check(speed, [.key("speed")], PresetLimits.speed)
        try check(blur, [.key("blur")], PresetLimits.blur)
        guard Double(seed) <= PresetLimits.seed.upperBound else {
            throw failure([.key("seed")], .outOfRange(String(seed), allowed: PresetLimits.seed))
        }
        try check(fps, [.key("fps")], PresetLimits.fps)
        try check(duration, [.key("duration")], PresetLimits.duration)
        try check(pointScale, [.key("pointScale")], PresetLimits.pointScale)
        try check(ranges.size, [.key("blobSize")], PresetLimits.blobSize)
        try check(ranges.aspect, [.key("blobAspect")], PresetLimits.blobAspect)
        try check(ranges.opacity, [.key("opacity")], PresetLimits.opacity)
        try check(ranges.retargetInterval, [.key("retargetInterval")], PresetLimits.retargetInterval)
        if let problem = PresetLimits.checkSize(width: width, height: height) { throw failure([.key("size")], problem) }
        if let blobs {
            try check(blobs, [.key("blobs")], highlights: false)
        } else if !PresetLimits.colorCount.contains(colors.count) {
            let allowed = PresetLimits.colorCount
            let reason = PresetError.Reason.wrongCount(found: colors.count, allowed: allowed, blobs: false)
            throw failure([.key("colors")], reason)
        }
        if let highlightBlobs {
            try check(highlightBlobs, [.key("highlightBlobs")], highlights: true)
        } else if highlights.count > PresetLimits.colorCount.upperBound {
            let allowed = 0...PresetLimits.colorCount.upperBound
            throw failure([.key("highlights")], .wrongCount(found: highlights.count, allowed: allowed, blobs: false))
        }
        try check(colors, [.key("colors")])
        try check(highlights, [.key("highlights")])
        switch background {
        case .color(let color): try check(color, [.key("background")])
        case .gradient(let gradient):
            // A Gradient already holds 2 or more stops, at clamped locations.
            try check(gradient.angle, [.key("background"), .key("angle")], PresetLimits.gradientAngle)
            for (index, stop) in gradient.stops.enumerated() {
                try check(stop.color, [.key("background"), .key("stops"), .index(index), .key("color")])
            }
        }
    }
}
