import FluidGradientStudio
import Foundation
import Testing

@Suite struct OpenAPITests {
    @Test func documentsEveryRouteTheServerAnswers() throws {
        let document = OpenAPIDocument.studio
        #expect(document.root["openapi"] as? String == "3.1.0")
        let routes = Studio(configuration: .init()).routeTable
        #expect(routes.count >= 14)
        for (path, methods) in routes {
            let operations = try #require(document.paths[path], "\(path) is not in openapi.json")
            for method in methods {
                #expect(operations[method.lowercased()] != nil, "\(method) \(path) is not in openapi.json")
            }
        }
        let served = Set(routes.map(\.path))
        for path in document.paths.keys {
            #expect(served.contains(path), "openapi.json has \(path), which is not served")
        }
    }

    @Test func declaresAProblemSchemaForEveryErrorStatus() throws {
        let document = OpenAPIDocument.studio
        for (path, item) in document.paths {
            for (method, value) in item {
                let operation = try #require(value as? [String: Any])
                let responses = try #require(operation["responses"] as? [String: Any], "\(method) \(path)")
                for (status, response) in responses where status.hasPrefix("4") || status.hasPrefix("5") {
                    let content = try #require(document.resolve(response)?["content"] as? [String: Any])
                    #expect(content["application/problem+json"] != nil, "\(method) \(path) \(status)")
                }
                #expect(responses.keys.contains { $0.hasPrefix("2") }, "\(method) \(path) has no success")
            }
        }
    }

    @Test func matchesRequestPathsToTheirTemplates() {
        let document = OpenAPIDocument.studio
        #expect(document.template(for: "/v1/presets/aurora") == "/v1/presets/{name}")
        #expect(document.template(for: "/v1/presets") == "/v1/presets")
        #expect(document.template(for: "/studio.js") == "/{file}")
        #expect(document.template(for: "/v1/designs/abc/frames/1x1/0.png") == "/v1/designs/{id}/frames/{size}/{file}")
        #expect(document.template(for: "/v1/nothing/here") == nil)
    }
}
