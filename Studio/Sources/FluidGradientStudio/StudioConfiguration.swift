import Foundation

/// What the render service allows and where it listens: the limits of issue 26, each with
/// the status a request over it gets (documented in `openapi.json` and the README).
package struct StudioConfiguration: Sendable {
    /// The address to bind; loopback unless the user opts in.
    package var host = "127.0.0.1"
    /// The TCP port.
    package var port = 8080
    /// The bearer token every `/v1` request must carry; nil for none (loopback only).
    package var token: String?
    /// The most pixels (width × height) a frame may have; more is 422.
    package var maxPixels = 3840 * 2160
    /// The largest JSON request body in bytes (a preset, a compare request); more is 413.
    package var maxBodyBytes = 256 * 1024
    /// The largest image upload in bytes (`/v1/images`, `/v1/palette`); more is 413.
    package var maxImageBytes = 16 * 1024 * 1024
    /// How many frames render at once, each on one thread.
    package var maxRenders = ProcessInfo.processInfo.activeProcessorCount
    /// How many frame renders may wait for a thread; more is 503 with `Retry-After`.
    package var maxWaitingRenders = 4 * ProcessInfo.processInfo.activeProcessorCount
    /// How long a request may wait and render before it is answered 503 with `Retry-After`.
    package var deadline = Duration.seconds(10)
    /// The seconds a 503 tells the client to wait (`Retry-After`).
    package var retryAfterSeconds = 1
    /// The bytes of encoded frames kept in memory, least recently used dropped first.
    package var cacheBytes = 256 * 1024 * 1024
    /// How many posted designs are kept (the built-in presets are always kept).
    package var maxDesigns = 4096
    /// The bytes of decoded uploaded images kept, least recently used dropped first.
    package var imageCacheBytes = 256 * 1024 * 1024
    /// How many render jobs run at once.
    package var maxRunningJobs = ProcessInfo.processInfo.activeProcessorCount
    /// How many render jobs may wait to run; more is 503 with `Retry-After`.
    package var maxQueuedJobs = 8
    /// The most frames (duration × fps) one job may render; more is 422.
    package var maxJobFrames = 3600
    /// How long a finished job's file is kept when nobody downloads it.
    package var jobExpiry = Duration.seconds(15 * 60)
    /// Serve the page from this folder, read on every request, instead of the embedded copy
    /// (for working on the page).
    package var pageDirectory: String?

    /// The defaults: loopback, port 8080, no token, the limits above.
    package init() {}
}
