import Hummingbird

/// Hummingbird's router, remembering which methods each path answers, so that a request
/// with another method gets 405 with `Allow` instead of the router's 404.
///
/// Routes are added as to any router (`get`, `post`, `group`); ``finish()`` adds the 405
/// answers once every route is in.
package final class StudioRouter: RouterMethods, @unchecked Sendable {
    package typealias Context = StudioContext

    /// The router the routes go to.
    let router: Router<StudioContext>
    /// The methods of each path, by the path's pattern, in the order added.
    private var methods: [(path: RouterPath, methods: [HTTPRequest.Method])] = []

    init(router: Router<StudioContext>) { self.router = router }

    @discardableResult package func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == StudioContext {
        if let index = methods.firstIndex(where: { $0.path.description == path.description }) {
            methods[index].methods.append(method)
        } else {
            methods.append((path, [method]))
        }
        router.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult package func add(
        middleware: any MiddlewareProtocol<Request, Response, StudioContext>
    ) -> Self {
        router.add(middleware: middleware)
        return self
    }

    /// The routes added so far: each path pattern and its methods.
    var routes: [(path: String, methods: [String])] {
        methods.map { ($0.path.description, $0.methods.map(\.rawValue)) }
    }

    /// Answers the methods a path lacks with 405 and its `Allow` list. HEAD is answered
    /// where GET is (the router makes it from GET).
    func finish() {
        let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace, .connect]
        for (path, answered) in methods {
            let allowed = answered.contains(.get) ? answered + [.head] : answered
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            for method in all where !allowed.contains(method) {
                router.on(path, method: method) { request, _ -> Response in
                    var problem = Problem(
                        .methodNotAllowed, "method-not-allowed", title: "Method not allowed",
                        detail: "\(request.uri.path) answers \(allow), not \(request.method.rawValue).")
                    problem.headers[.allow] = allow
                    throw problem
                }
            }
        }
    }
}
