import FluidGradientIO
import Hummingbird
import NIOCore
import NIOHTTP1

/// Answers every error a route throws as a ``Problem``: problems as they are, the router's
/// own errors (no route, a body over Hummingbird's limit) with their status, a
/// ``PresetError`` as a bad preset, another error the library blames on its input (a size
/// an encoder refuses) as 422, a malformed or cut-off body as 400, and anything else as a
/// 500 that shows no internals (the error itself goes to the log). No problem's text holds
/// a path of the server's (``Problem/withoutServerPaths``).
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            return try Self.problem(for: error, request: request, context: context).withoutServerPaths
                .response(from: request, context: context)
        }
    }

    /// The problem that answers `error`.
    static func problem(for error: any Error, request: Request, context: Context) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as PresetError:
            return .invalidPreset(error)
        case RenderError.preset(let error):
            return .invalidPreset(error)
        case let error as HTTPError:
            return problem(for: error, request: request)
        case let error as HTTPParserError:
            return .malformedBody(error)
        case is NIOTooManyBytesError:
            return Problem.bodyTooLarge(limit: nil)
        case is ChannelError, is IOError:
            // The connection failed under the request (the client left): nobody reads this.
            context.logger.debug("the connection ended", metadata: ["error": "\(error)"])
            return .bodyCutShort(received: nil)
        case let error as any FluidGradientError where error.isInputError:
            return .unprocessable("The request cannot be rendered: \(error).")
        default:
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            return Problem(
                .internalServerError, "internal-error", title: "Internal error",
                detail: "The service failed; the error is in its log.")
        }
    }

    private static func problem(for error: HTTPError, request: Request) -> Problem {
        switch error.status {
        case .notFound:
            return .notFound("Nothing is at \(request.uri.path).")
        case .contentTooLarge:
            return Problem(
                .contentTooLarge, "body-too-large", title: "The request body is too large",
                detail: error.body ?? "The body is over the limit.")
        default:
            let detail = error.body ?? error.status.reasonPhrase
            let slug = error.status.reasonPhrase.lowercased().split(separator: " ").joined(separator: "-")
            return Problem(error.status, slug, title: error.status.reasonPhrase, detail: detail)
        }
    }
}
