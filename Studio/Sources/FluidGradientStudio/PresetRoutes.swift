import FluidGradientIO
import Foundation
import Hummingbird

extension Studio {
    /// Adds `GET /v1/presets`, `GET /v1/presets/{name}` (the built-in presets), and
    /// `POST /v1/designs`, `GET /v1/designs/{id}` (designs by content address).
    func addPresetRoutes(to v1: RouterGroup<StudioContext>) {
        let list = presetListJSON()
        v1.get("presets") { _, _ in Response.json(list) }
        v1.get("presets/{name}") { _, context in
            let name = try context.parameters.require("name")
            return Response.json(try self.builtInDesign(named: name).json)
        }
        v1.post("designs") { request, context in
            let preset = try Preset(json: try await self.jsonBody(of: request, context: context), file: "request")
            if let refusal = self.jobs.limits.refusal(of: preset) { throw Problem(refusal) }
            let design = self.designs.register(preset)
            let text = "{\"id\":\"\(design.id)\",\"frameCount\":\(preset.frameCount),\"preset\":\(design.json)}"
            return Response.json(text)
        }
        v1.get("designs/{id}") { _, context in
            Response.json(try self.design(id: try context.parameters.require("id")).json)
        }
    }

    /// The built-in preset `name`'s design.
    ///
    /// - Throws: a 404 ``Problem`` naming the presets there are.
    func builtInDesign(named name: String) throws -> Design {
        guard let design = designs.builtIn(named: name) else {
            let names = designs.builtIn.map(\.name).joined(separator: ", ")
            throw Problem.notFound("There is no built-in preset '\(name)'; there are \(names).")
        }
        return design
    }

    /// The design at address `id`.
    ///
    /// - Throws: a 404 ``Problem`` that says to post the design again.
    func design(id: String) throws -> Design {
        guard let design = designs.design(id: id) else {
            throw Problem.notFound("No design has the id '\(id)'; POST its preset to /v1/designs (again).")
        }
        return design
    }

    /// `{"presets": [{"name", "description", "design"}]}`, made once.
    private func presetListJSON() -> String {
        let presets = designs.builtIn.map { entry in
            ["name": entry.name, "description": entry.design.preset.description, "design": entry.design.id]
        }
        // Strings always serialize.
        let data = try! JSONSerialization.data(
            withJSONObject: ["presets": presets], options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
