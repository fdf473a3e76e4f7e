import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of every studio route: Hummingbird's basics, and the connection
/// the request came on (for the client's address and for the state of a download).
package struct StudioContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The connection; nil for requests that come on none (the router's tests).
    let channel: (any Channel)?
    /// The peer's address on that connection, such as `127.0.0.1`; nil when it has none.
    let peerAddress: String?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        peerAddress = source.channel.remoteAddress?.ipAddress
    }
}

extension Studio {
    /// Who sent `request`, for the per-client shares of uploads and jobs: the address in
    /// the header that ``StudioConfiguration/clientAddressHeader`` names (set by a reverse
    /// proxy; its last address, the one the proxy saw), else the connection's peer address.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - context: its context.
    /// - Returns: the client's address, or `-` when there is none (requests in tests).
    func client(of request: Request, context: StudioContext) -> String {
        if let name = configuration.clientAddressHeader, let field = HTTPField.Name(name),
            let value = request.headers[values: field].last,
            let last = value.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        {
            return String(last.prefix(64))
        }
        return context.peerAddress ?? "-"
    }
}
