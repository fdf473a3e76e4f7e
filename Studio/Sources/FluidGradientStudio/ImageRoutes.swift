import FluidGradientIO
import Foundation
import Hummingbird

extension Studio {
    /// Adds `POST /v1/images` (an upload to compare with) and `POST /v1/palette?count=N`
    /// (an image's prominent colours, as `fluidgradient palette` finds them).
    func addImageRoutes(to v1: RouterGroup<StudioContext>) {
        v1.post("images") { request, _ in
            try await self.withUploadPlace {
                let body = try await self.imageBody(of: request)
                let image = try await self.compute {
                    UploadedImage(id: SHA256.hex(body), frame: try self.decodePNG(body))
                }
                self.images.insert(image, for: image.id, cost: image.frame.bytes.count)
                return Response.json(
                    "{\"id\":\"\(image.id)\",\"width\":\(image.frame.width),\"height\":\(image.frame.height)}")
            }
        }
        v1.post("palette") { request, _ in
            let count = try Self.paletteCount(request.uri.queryParameters["count"].map(String.init))
            return try await self.withUploadPlace {
                let body = try await self.imageBody(of: request)
                let colors = try await self.compute { try self.decodePNG(body).palette(count: count) }
                let list = colors.map { "\"\($0.description)\"" }.joined(separator: ",")
                return Response.json("{\"colors\":[\(list)]}")
            }
        }
    }

    /// The uploaded image `id`.
    ///
    /// - Throws: a 404 ``Problem`` that says to upload it (again).
    func image(id: String) throws -> UploadedImage {
        guard let image = images.value(for: id) else {
            throw Problem.notFound("No image has the id '\(id)'; POST the PNG to /v1/images (again).")
        }
        return image
    }

    /// Runs `work` in one of the upload places, as many as renders may run and wait: an image
    /// is read into memory (up to its limit) before its render can be refused, so without
    /// them many uploads at once could hold many times that limit.
    ///
    /// - Throws: a 503 ``Problem`` with `Retry-After` when every place is taken; what `work`
    ///   throws.
    private func withUploadPlace(_ work: () async throws -> Response) async throws -> Response {
        let places = configuration.maxRenders + configuration.maxWaitingRenders
        defer { uploads.subtract(1, ordering: .relaxed) }
        guard uploads.add(1, ordering: .relaxed).newValue <= places else {
            throw Problem.busy(
                "\(places) image uploads are being read or worked on.", retryAfter: configuration.retryAfterSeconds)
        }
        return try await work()
    }

    private func imageBody(of request: Request) async throws -> Data {
        try request.requireContentType("image/png")
        return Data(buffer: try await request.collectBody(limit: configuration.maxImageBytes))
    }

    /// The `count` query parameter: 1...16, 5 when absent (as `fluidgradient palette -n`).
    private static func paletteCount(_ text: String?) throws -> Int {
        guard let text else { return 5 }
        guard let count = Int(text), text.utf8.count <= 3 else {
            throw Problem.badRequest("count must be a whole number from 1 to 16, not '\(text)'.")
        }
        guard (1...16).contains(count) else { throw Problem.unprocessable("count must be from 1 to 16, not \(count).") }
        return count
    }
}
