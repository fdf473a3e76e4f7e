import Foundation

extension Preset {
    /// Reads a preset from a JSON document in memory, with the keys of the command's
    /// `--preset` files, as FluidGradientIO's `init(contentsOf:)` reads a file.
    ///
    /// The preset is checked as it is read, so every value is inside its bounds, and
    /// nothing partial comes out.
    ///
    /// - Parameters:
    ///   - data: The document's UTF-8 bytes.
    ///   - file: How errors name the document, such as `"request"`.
    /// - Throws: ``PresetError`` naming `file`, the line and the key path at fault when
    ///   the JSON or a value is wrong.
    public init(json data: Data, file: String) throws(PresetError) {
        try self.init(json: [UInt8](data), file: file)
    }

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
        for field in PresetSchema.fields {
            guard let node = object[field.key] else { continue }
            try field.read(node, at: object.path(field.key), reader: reader, into: &self)
        }
    }

    /// Explicit blobs, each `{ "color", "center", "radius", "opacity" }` with opacity 1
    /// when left out.
    ///
    /// - Parameters:
    ///   - node: the value that should be the list.
    ///   - reader: reads values, naming the file in errors.
    ///   - path: the list's key path.
    ///   - highlights: whether it is `highlightBlobs`, which may be empty.
    /// - Returns: the blobs in order.
    /// - Throws: ``PresetError`` for a list of the wrong length or a blob that cannot be used.
    static func readBlobs(
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
                    center: try reader.pair(
                        object["center"]!, at: object.path("center"), in: PresetLimits.blobCoordinate),
                    radius: try reader.pair(
                        object["radius"]!, at: object.path("radius"), in: PresetLimits.blobCoordinate),
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
    ///
    /// - Throws: ``PresetError`` for the first key, in file order, that is out of bounds.
    package func validate() throws(PresetError) {
        for field in PresetSchema.fields { try field.check(self) }
    }
}
