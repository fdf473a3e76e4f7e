import FluidGradientIO
import Foundation
import Hummingbird

extension Studio {
    /// Adds `POST /v1/images` (an upload to compare with) and `POST /v1/palette?count=N`
    /// (an image's prominent colours, as `fluidgradient palette` finds them).
    func addImageRoutes(to v1: RouterGroup<StudioContext>) {
        v1.post("images") { request, context in
            try await self.withImageBody(of: request, context: context) { body in
                let image = try await self.compute { stop in
                    UploadedImage(id: SHA256.hex(body), frame: try self.decodePNG(body, shouldStop: stop))
                }
                self.images.insert(image, for: image.id, cost: image.frame.bytes.count)
                return Response.json(
                    "{\"id\":\"\(image.id)\",\"width\":\(image.frame.width),\"height\":\(image.frame.height)}")
            }
        }
        v1.post("palette") { request, context in
            let count = try Self.paletteCount(request.uri.queryParameters["count"].map(String.init))
            return try await self.withImageBody(of: request, context: context) { body in
                let colors = try await self.compute { stop in
                    try self.decodePNG(body, shouldStop: stop).palette(count: count)
                }
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
