import FluidGradientIO
import Foundation
import Hummingbird

/// The body of `POST /v1/compare`.
struct CompareRequest: Decodable {
    /// What `target` names: an uploaded image or another design, exactly one.
    struct Target: Decodable {
        let image: String?
        let design: String?
    }

    let design: String
    let target: Target
    let time: Double?
    let width: Int?
    let height: Int?
}

extension Studio {
    /// Adds `POST /v1/compare`: a design's frame against a target (an uploaded image or
    /// another design's frame at the same size and time), measured as
    /// `fluidgradient compare TARGET DESIGN` measures a frame pair.
    func addCompareRoutes(to v1: RouterGroup<StudioContext>) {
        v1.post("compare") { request, context in
            let body = try await self.jsonBody(of: request, context: context)
            guard let compare = try? JSONDecoder().decode(CompareRequest.self, from: body) else {
                throw Problem.badRequest(
                    #"The body must be {"design": ID, "target": {"image": ID} or {"design": ID}, "time"?, "width"?, "#
                        + #""height"?} with a number for time and whole numbers for the sides."#)
            }
            let design = try self.design(id: compare.design)
            let target = try self.target(of: compare)
            let address = try self.address(of: compare, design: design, target: target)
            let (difference, map, look) = try await self.compute { () throws -> (Frame.Difference, Data, LookMatch) in
                let actual = try Self.frame(of: design.preset, at: address)
                let expected = try target.frame ?? Self.frame(of: target.design!.preset, at: address)
                // The address has the target image's size, so the sizes match.
                let difference = actual.difference(from: expected)!
                return (difference, try difference.map.pngData(), LookMatch(expected: expected, actual: actual))
            }
            return Response.json(Self.json(difference, map: map, look: look))
        }
    }

    /// The target: an uploaded image's frame, or a design.
    private func target(of compare: CompareRequest) throws -> (frame: Frame?, design: Design?) {
        switch (compare.target.image, compare.target.design) {
        case (let id?, nil): return (try image(id: id).frame, nil)
        case (nil, let id?): return (nil, try design(id: id))
        default: throw Problem.badRequest(#"The target must name one of "image" and "design"."#)
        }
    }

    /// The frame both sides are compared at: the size asked for, else the target image's,
    /// else the design's; 8-bit, at the time asked for (0 when left out).
    private func address(of compare: CompareRequest, design: Design, target: (frame: Frame?, design: Design?))
        throws -> FrameAddress
    {
        guard (compare.width == nil) == (compare.height == nil) else {
            throw Problem.badRequest("Give both width and height, or neither.")
        }
        let width = compare.width ?? target.frame?.width ?? design.preset.width
        let height = compare.height ?? target.frame?.height ?? design.preset.height
        if let frame = target.frame, (frame.width, frame.height) != (width, height) {
            throw Problem.unprocessable(
                "The target image is \(frame.width)x\(frame.height); compare at that size, not \(width)x\(height).")
        }
        return try FrameAddress(
            width: width, height: height, time: compare.time ?? 0, format: .png, depth: .eight,
            maxPixels: configuration.maxPixels)
    }

    /// What `fluidgradient compare --json` reports for a frame pair, with the same names,
    /// the difference map as a `data:` URL, and how close the two look (``LookMatch``).
    private static func json(_ difference: Frame.Difference, map: Data, look: LookMatch) -> String {
        func number(_ value: Double) -> Any { value.isFinite ? (value * 1e6).rounded() / 1e6 : NSNull() }
        let object: [String: Any] = [
            "score": number(difference.score), "psnr": number(difference.psnr),
            "largestDifference": number(difference.largestDifference),
            "worst": [
                "x": difference.worst.x, "y": difference.worst.y,
                "channel": ["R", "G", "B", "A"][difference.worst.channel],
            ],
            "meanDeltaE": number(difference.meanDeltaE), "largestDeltaE": number(difference.largestDeltaE),
            "differenceMap": "data:image/png;base64," + map.base64EncodedString(),
            "match": ["score": number(look.score), "colours": number(look.colours), "layout": number(look.layout)],
        ]
        // Numbers, strings and null always serialize.
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
