import Foundation

/// What the render service allows and where it listens: the limits of issues 26 and 35,
/// each with the status a request over it gets (documented in `openapi.json` and
/// docs/studio.md).
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
    /// The bytes the posted designs may hold (``Design/bytes``), least recently used
    /// dropped first (the built-in presets are always kept).
    package var designBytes = 64 * 1024 * 1024
    /// The bytes of decoded uploaded images kept, least recently used dropped first.
    package var imageCacheBytes = 128 * 1024 * 1024
    /// The bytes of JSON request bodies being read at once; more is 503 with `Retry-After`.
    package var bodyBytes = 32 * 1024 * 1024
    /// The bytes of image uploads being read or worked on at once; more is 503 with
    /// `Retry-After`.
    package var uploadBytes = 64 * 1024 * 1024
    /// The connection cap and the timeouts.
    package var connections = ConnectionLimits()
    /// The request header a reverse proxy sets to the client's address (such as
    /// `X-Real-IP`), for the per-client shares; nil to use the connection's peer address.
    package var clientAddressHeader: String?
    /// How many render jobs run at once.
    package var maxRunningJobs = ProcessInfo.processInfo.activeProcessorCount
    /// How many render jobs may wait to run; more is 503 with `Retry-After`.
    package var maxQueuedJobs = 8
    /// The most frames (duration × fps) one job may render; more is 422.
    package var maxJobFrames = 3600
    /// The most pixels × frames one job may have (the design's width × height × the job's
    /// frames); more is 422.
    package var maxJobPixelFrames = 8_000_000_000
    /// How long a job may run before it is stopped and fails.
    package var jobTimeLimit = Duration.seconds(30 * 60)
    /// The nice value (0 to 19) of the jobs' threads and the encoders they start, so that
    /// the preview's frames take a core before a job's.
    package var jobNiceness: Int32 = 19
    /// The bytes the running jobs' encoders may use at once, by their measured footprint;
    /// a job that needs more than all of it is 422, one that needs more than is free waits.
    package var jobMemoryBytes = 4096 * 1024 * 1024
    /// How long a finished job's file is kept when nobody downloads it.
    package var jobExpiry = Duration.seconds(15 * 60)
    /// Serve the page from this folder, read on every request, instead of the embedded copy
    /// (for working on the page).
    package var pageDirectory: String?

    /// The defaults: loopback, port 8080, no token, the limits above.
    package init() {}
}
