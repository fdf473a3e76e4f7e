import Hummingbird

/// The studio page: `/` is `index.html`, `/{file}` the page's other files, each with a
/// strong `ETag` (its bytes' hash) that the browser revalidates (`no-cache`), so a new
/// binary's page is never stale and an unchanged one costs a 304.
struct PageRoutes: Sendable {
    /// A page file ready to send.
    struct Served: Sendable {
        let body: ByteBuffer
        let contentType: String
        let eTag: String
    }

    /// The embedded files, prepared once; nil when they are read from ``directory``.
    private let embedded: [String: Served]?
    /// The folder read on every request while the page is being worked on.
    private let directory: String?

    /// The routes for the embedded page, or for the files of `directory` when it is given.
    init(directory: String?) {
        self.directory = directory
        embedded = directory == nil ? Self.prepare(PageFiles.embedded) : nil
    }

    /// Adds `GET /` and `GET /{file}`.
    func add(to router: some RouterMethods<StudioContext>) {
        router.get("/") { request, _ in try self.respond(to: request, name: "index.html") }
        router.get("/{file}") { request, context in
            try self.respond(to: request, name: try context.parameters.require("file"))
        }
    }

    private func respond(to request: Request, name: String) throws -> Response {
        let files = try embedded ?? Self.prepare(PageFiles(directory: directory!))
        guard let file = files[name] else { throw Problem.notFound("The page has no file '\(name)'.") }
        var headers: HTTPFields = [.eTag: file.eTag, .cacheControl: "no-cache"]
        if EntityTag.matches(request.headers[.ifNoneMatch], file.eTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }

    private static func prepare(_ files: PageFiles) -> [String: Served] {
        var served: [String: Served] = [:]
        for name in files.names {
            let file = files[name]!
            served[name] = Served(
                body: ByteBuffer(bytes: file.bytes), contentType: file.contentType,
                eTag: "\"\(SHA256.hex(file.bytes).prefix(32))\"")
        }
        return served
    }
}
