import FluidGradientIO
import Foundation
import Hummingbird

/// An encoded frame as the cache keeps it.
struct EncodedFrame: Sendable {
    /// The image file's bytes.
    let body: ByteBuffer
    /// Its strong entity tag.
    let eTag: String
}

/// What the frame cache is keyed by: the design's pixels (``Design/pixelID``) and the frame
/// address.
struct FrameKey: Hashable, Sendable {
    let pixelID: String
    let address: FrameAddress
}

extension Studio {
    /// Adds the frame routes: `GET /v1/designs/{id}/frames/{W}x{H}/{time}.{ext}`
    /// (immutable) and `GET /v1/presets/{name}/frames/...` (the same image under a name,
    /// revalidated, with the immutable URL in `Content-Location`).
    func addFrameRoutes(to v1: RouterGroup<StudioContext>) {
        v1.get("designs/{id}/frames/{size}/{file}") { request, context in
            let design = try self.design(id: try context.parameters.require("id"))
            return try await self.frameResponse(for: design, request: request, context: context, named: false)
        }
        v1.get("presets/{name}/frames/{size}/{file}") { request, context in
            let design = try self.builtInDesign(named: try context.parameters.require("name"))
            return try await self.frameResponse(for: design, request: request, context: context, named: true)
        }
    }

    private func frameResponse(for design: Design, request: Request, context: StudioContext, named: Bool)
        async throws -> Response
    {
        let size = try context.parameters.require("size"), file = try context.parameters.require("file")
        let depth = request.uri.queryParameters["depth"].map(String.init)
        let address = try FrameAddress(size: size, file: file, depth: depth, maxPixels: configuration.maxPixels)
        let key = FrameKey(pixelID: design.pixelID, address: address)
        var headers: HTTPFields = [:]
        if named {
            headers[.cacheControl] = "no-cache"
            let query = depth.map { "?depth=\($0)" } ?? ""
            headers[.contentLocation] = "/v1/designs/\(design.id)/frames/\(size)/\(file)\(query)"
        } else {
            headers[.cacheControl] = "public, max-age=31536000, immutable"
        }
        if let inNoneMatch = request.headers[.ifNoneMatch] {
            let eTag = frames.value(for: key)?.eTag ?? address.eTag(pixelID: design.pixelID)
            if EntityTag.matches(inNoneMatch, eTag) {
                headers[.eTag] = eTag
                return Response(status: .notModified, headers: headers)
            }
        }
        let frame = try await encodedFrame(key, design: design)
        headers[.eTag] = frame.eTag
        headers[.contentType] = address.format.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: frame.body))
    }

    /// The frame `key` of `design`, from the cache or rendered on a render thread. Requests
    /// for a frame that is being rendered wait for that render instead of starting another.
    ///
    /// - Throws: 503 ``Problem`` when the service is busy or the deadline passes; 422 when
    ///   the design cannot be shown at the size.
    func encodedFrame(_ key: FrameKey, design: Design) async throws -> EncodedFrame {
        if let cached = frames.value(for: key) { return cached }
        let render = rendering.withLock { rendering in
            if let render = rendering[key] { return render }
            let render = Task {
                defer { _ = self.rendering.withLock { $0.removeValue(forKey: key) } }
                let address = key.address, preset = design.preset
                return try await self.compute {
                    let data = try Self.encode(preset, at: address)
                    let encoded = EncodedFrame(body: ByteBuffer(data: data), eTag: address.eTag(pixelID: key.pixelID))
                    // Cached on the render thread: a render that outlives its request's deadline
                    // still serves the next request, instead of being rendered again for each
                    // retry. The cost is what the buffer holds (its capacity), not the file's size.
                    self.frames.insert(encoded, for: key, cost: encoded.body.capacity + 256)
                    return encoded
                }
            }
            rendering[key] = render
            return render
        }
        return try await render.value
    }

    /// The image file of `preset` shown at `address`.
    ///
    /// - Throws: a 422 ``Problem`` when the shown preset is out of the library's bounds;
    ///   the encoder's error when it fails.
    static func encode(_ preset: Preset, at address: FrameAddress) throws -> Data {
        try shownWithinBounds(address) {
            let (time, width, height) = (address.time, address.width, address.height)
            switch address.format {
            case .png:
                return try preset.frame(
                    at: time, width: width, height: height, keepingLook: true, depth: address.depth
                ).pngData()
            case .webp: return try preset.webpData(at: time, width: width, height: height, keepingLook: true)
            case .avif: return try preset.avifData(at: time, width: width, height: height, keepingLook: true)
            }
        }
    }

    /// The frame of `preset` shown at `address` (its format aside).
    ///
    /// - Throws: a 422 ``Problem`` when the shown preset is out of the library's bounds.
    static func frame(of preset: Preset, at address: FrameAddress) throws -> Frame {
        try shownWithinBounds(address) {
            try preset.frame(
                at: address.time, width: address.width, height: address.height, keepingLook: true,
                depth: address.depth)
        }
    }

    /// Runs `render`, answering a ``PresetError`` (the shown preset out of bounds), bare or
    /// as a ``RenderError``, as 422.
    private static func shownWithinBounds<T>(_ address: FrameAddress, _ render: () throws -> T) throws -> T {
        do {
            return try render()
        } catch let error as PresetError {
            throw outOfBounds(error, at: address)
        } catch RenderError.preset(let error) {
            throw outOfBounds(error, at: address)
        }
    }

    /// The 422 problem for a preset that cannot be shown at `address`.
    private static func outOfBounds(_ error: PresetError, at address: FrameAddress) -> Problem {
        var problem = Problem.unprocessable(
            "The design cannot be shown at \(address.width)x\(address.height): \(error.reason).")
        problem.extensions["keyPath"] = .string(error.keyPath)
        return problem
    }
}
