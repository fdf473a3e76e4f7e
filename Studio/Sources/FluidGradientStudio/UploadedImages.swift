import FluidGradientIO
import Foundation

/// An uploaded image, decoded: what `/v1/images/{id}` names for comparisons.
package struct UploadedImage: Sendable {
    /// The content address: SHA-256 of the PNG file's bytes, in hex.
    package let id: String
    /// The decoded pixels.
    package let frame: Frame
}

extension Studio {
    /// Decodes a PNG upload after checking its header against the pixel limit. The decode
    /// ends with the image's last row, and stops when `shouldStop` says so.
    ///
    /// - Parameters:
    ///   - body: the request body.
    ///   - shouldStop: asked as the decode reads; true (the request's deadline passed) stops it.
    /// - Returns: the decoded frame.
    /// - Throws: a 400 ``Problem`` when the bytes are not a PNG the library decodes; a 422
    ///   one when the image has more pixels than the limit.
    func decodePNG(_ body: Data, shouldStop: @escaping @Sendable () -> Bool = { false }) throws -> Frame {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard body.count >= 24, Array(body.prefix(8)) == signature else {
            throw Problem(
                .badRequest, "not-a-png", title: "The body is not a PNG image",
                detail: "The body must be a PNG file's bytes.")
        }
        let bytes = Array(body[body.startIndex + 16..<body.startIndex + 24])
        let width = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }, height = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        let pixels = width.multipliedReportingOverflow(by: height)
        guard !pixels.overflow, pixels.partialValue <= configuration.maxPixels else {
            throw Problem.unprocessable(
                "The image is \(width)x\(height), over the limit of \(configuration.maxPixels) pixels.")
        }
        do {
            return try Frame(pngData: body, shouldStop: shouldStop)
        } catch {
            throw Problem(
                .badRequest, "not-a-png", title: "The body is not a PNG image",
                detail: "The PNG cannot be decoded: \(error).")
        }
    }
}
