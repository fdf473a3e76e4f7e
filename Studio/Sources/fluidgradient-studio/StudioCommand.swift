import ArgumentParser
import FluidGradientStudio
import Foundation
import Logging

/// `fluidgradient-studio`: the studio page and the render service, on one port.
@main
struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fluidgradient-studio",
        abstract: "Serve the FluidGradient studio page and its render API (/v1) over HTTP.",
        discussion: """
            Open http://127.0.0.1:8080/ for the studio: a live editor whose preview is the engine's own \
            frames. The same server renders frames (PNG, WebP, AVIF), palettes, comparisons and video \
            jobs for other programs; the API is described in Studio/openapi.json.

            Examples:
              fluidgradient-studio
              fluidgradient-studio --port 9000 --max-renders 4
              FLUIDGRADIENT_STUDIO_TOKEN=$(openssl rand -hex 16) fluidgradient-studio --host 0.0.0.0
              curl -o f.png http://127.0.0.1:8080/v1/presets/aurora/frames/640x360/1.5.png

            Limits: a JSON body over --max-body or an image over --max-image-body is 413; a frame over \
            --max-pixels or a time outside 0...86400 is 422; more than --max-renders frames rendering \
            and --max-waiting-renders waiting, or a render past --deadline, is 503 with Retry-After. \
            Errors are application/problem+json.

            Memory budgets: posted designs (--design-megabytes, 64), the frame cache (--cache-megabytes, \
            256), uploaded images (--image-cache-megabytes, 128) are bounded in bytes, least recently used \
            dropped first; JSON bodies being read (--body-megabytes, 32) and image uploads being read or \
            decoded (--upload-megabytes, 64) are bounded in bytes, one client at most half of each, and a \
            body over its budget is 503 with Retry-After. A job is 422 over --max-job-gigapixel-frames \
            (its width x height x frames) or when its encoders' measured memory is over \
            --job-memory-megabytes; jobs wait until their memory is free, a big bundle encodes its files \
            one after another, and a job is stopped after --job-time-limit. One client may have half the \
            job places and half the finished files waiting.

            Connections: at most --max-connections, fewer when the descriptor limit (raised to its hard \
            limit at start) is lower: descriptors for the jobs are kept free. Over the cap, the \
            connection idle longest is closed, or the new one is answered 503. A connection is closed \
            when idle for --idle-timeout, when a request's head takes longer than --header-timeout or its \
            body longer than --body-timeout (408), or when a client reads nothing of a response for \
            --send-timeout.

            Security: the server binds 127.0.0.1 unless --host says otherwise; any other address needs \
            a token (--token or FLUIDGRADIENT_STUDIO_TOKEN), which every /v1 request then sends as \
            'Authorization: Bearer <token>'. It speaks plain HTTP: to serve it to others, put it \
            behind a reverse proxy that terminates TLS (for example nginx with \
            'proxy_pass http://127.0.0.1:8080;' and 'proxy_buffering off;' for the job events), \
            and let a CDN cache /v1/designs/.../frames/..., whose responses are immutable.

            SIGTERM or SIGINT stops accepting requests, cancels running jobs within 5 s, closes the \
            connections still open after --shutdown-grace (a stalled upload or download), removes the \
            job files and exits 0. Exit status: 0 stopped; 2 bad usage; 3 the server could not start \
            or failed.
            """
    )

    @Option(help: "The address to listen on; anything but loopback needs a token.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port.")
    var port = 8080

    @Option(help: "The bearer token /v1 requests must send (default: $FLUIDGRADIENT_STUDIO_TOKEN).")
    var token: String?

    @Option(help: "The most pixels (width x height) of a frame (422 above).")
    var maxPixels = 3840 * 2160

    @Option(help: "The largest JSON request body in bytes (413 above).")
    var maxBody = 256 * 1024

    @Option(help: "The largest uploaded image in bytes (413 above).")
    var maxImageBody = 16 * 1024 * 1024

    @Option(help: "How many frames render at once (default: the number of cores).")
    var maxRenders = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "How many renders may wait for a thread (503 above; default: 4 x cores).")
    var maxWaitingRenders = 4 * ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Seconds a request may wait and render before it is answered 503.")
    var deadline = 10.0

    @Option(help: "Megabytes of encoded frames kept in memory.")
    var cacheMegabytes = 256

    @Option(help: "How many render jobs run at once (default: the number of cores).")
    var maxJobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "How many render jobs may wait (503 above).")
    var maxQueuedJobs = 8

    @Option(help: "Megabytes the posted designs may hold (least recently used dropped).")
    var designMegabytes = 64

    @Option(help: "Megabytes of decoded uploaded images kept (least recently used dropped).")
    var imageCacheMegabytes = 128

    @Option(help: "Megabytes of JSON bodies being read at once (503 above; a client at most half).")
    var bodyMegabytes = 32

    @Option(help: "Megabytes of image uploads being read or decoded at once (503 above; a client at most half).")
    var uploadMegabytes = 64

    @Option(help: "The most billions of pixels x frames one job may have (422 above).")
    var maxJobGigapixelFrames = 8.0

    @Option(help: "Megabytes the running jobs' encoders may use, by their measured memory (422 for a job above).")
    var jobMemoryMegabytes = 4096

    @Option(help: "Seconds a job may run before it is stopped and fails.")
    var jobTimeLimit = 1800.0

    @Option(help: "The nice value of jobs' threads and encoders, 0 to 19: above 0, the preview's frames go first.")
    var jobNiceness = 19

    @Option(help: "The most connections open at once (fewer when the descriptor limit is lower).")
    var maxConnections = 1024

    @Option(help: "Seconds a connection may stay open with no request under way.")
    var idleTimeout = 15.0

    @Option(help: "Seconds a request's head may take from its first byte (408 above).")
    var headerTimeout = 10.0

    @Option(help: "Seconds a request's body may take from its head (408 above).")
    var bodyTimeout = 60.0

    @Option(help: "Seconds a response may go unread before the connection is closed.")
    var sendTimeout = 30.0

    @Option(help: "Seconds after SIGTERM or SIGINT before the connections still open are closed.")
    var shutdownGrace = 5.0

    @Option(
        help: "A header a reverse proxy sets to the client's address (such as X-Real-IP), for the per-client shares.")
    var clientAddressHeader: String?

    @Option(help: "Serve the page's files from this folder, read on every request (for page development).")
    var pageDirectory: String?

    func validate() throws {
        let positive: [(String, Int)] = [
            ("--port", port), ("--max-pixels", maxPixels), ("--max-body", maxBody),
            ("--max-image-body", maxImageBody), ("--max-renders", maxRenders), ("--cache-megabytes", cacheMegabytes),
            ("--max-jobs", maxJobs), ("--design-megabytes", designMegabytes),
            ("--image-cache-megabytes", imageCacheMegabytes), ("--body-megabytes", bodyMegabytes),
            ("--upload-megabytes", uploadMegabytes), ("--job-memory-megabytes", jobMemoryMegabytes),
            ("--max-connections", maxConnections),
        ]
        for (name, value) in positive where value < 1 {
            throw ValidationError("\(name) must be at least 1, not \(value).")
        }
        for (name, value) in positive where name.hasSuffix("megabytes") && value > 1 << 30 {
            throw ValidationError("\(name) must be at most \(1 << 30), not \(value).")
        }
        try validateSeconds()
        guard port <= 65535 else { throw ValidationError("--port must be at most 65535, not \(port).") }
        guard (0...19).contains(jobNiceness) else {
            throw ValidationError("--job-niceness must be 0 to 19, not \(jobNiceness).")
        }
        guard maxWaitingRenders >= 0, maxQueuedJobs >= 0 else {
            throw ValidationError("--max-waiting-renders and --max-queued-jobs must be 0 or more.")
        }
        guard deadline.isFinite, deadline > 0, deadline <= 3600 else {
            throw ValidationError("--deadline must be more than 0 and at most 3600 seconds, not \(deadline).")
        }
        guard Self.isLoopback(host) || resolvedToken != nil else {
            throw ValidationError(
                "--host \(host) is not a loopback address, so a token is needed: "
                    + "give --token or set FLUIDGRADIENT_STUDIO_TOKEN.")
        }
        if let pageDirectory, !FileManager.default.fileExists(atPath: pageDirectory + "/index.html") {
            throw ValidationError("--page-directory \(pageDirectory) holds no index.html.")
        }
    }

    /// Checks the options in seconds and in billions: finite, above 0, within a day (a job's
    /// time limit, a week).
    private func validateSeconds() throws {
        let seconds: [(String, Double, Double)] = [
            ("--idle-timeout", idleTimeout, 86400), ("--header-timeout", headerTimeout, 86400),
            ("--body-timeout", bodyTimeout, 86400), ("--send-timeout", sendTimeout, 86400),
            ("--shutdown-grace", shutdownGrace, 3600), ("--job-time-limit", jobTimeLimit, 7 * 86400),
            ("--max-job-gigapixel-frames", maxJobGigapixelFrames, 1e6),
        ]
        for (name, value, most) in seconds where !(value.isFinite && value > 0 && value <= most) {
            throw ValidationError("\(name) must be more than 0 and at most \(Int(most)), not \(value).")
        }
    }

    /// `seconds` as a duration, to the millisecond.
    private static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    /// The token from the option or the environment; an empty one counts as none.
    var resolvedToken: String? {
        let token = token ?? ProcessInfo.processInfo.environment["FLUIDGRADIENT_STUDIO_TOKEN"]
        return token?.isEmpty == false ? token : nil
    }

    /// Whether `host` names this machine only: `localhost`, an IPv4 address in 127.0.0.0/8 or
    /// `::1`. A name that only starts with `127.` (`127.example.com`) is not.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    var studioConfiguration: StudioConfiguration {
        var configuration = StudioConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.token = resolvedToken
        configuration.maxPixels = maxPixels
        configuration.maxBodyBytes = maxBody
        configuration.maxImageBytes = maxImageBody
        configuration.maxRenders = maxRenders
        configuration.maxWaitingRenders = maxWaitingRenders
        configuration.deadline = .milliseconds(Int64((deadline * 1000).rounded()))
        configuration.cacheBytes = cacheMegabytes * 1024 * 1024
        configuration.maxRunningJobs = maxJobs
        configuration.maxQueuedJobs = maxQueuedJobs
        configuration.pageDirectory = pageDirectory
        configuration.designBytes = designMegabytes << 20
        configuration.imageCacheBytes = imageCacheMegabytes << 20
        configuration.bodyBytes = bodyMegabytes << 20
        configuration.uploadBytes = uploadMegabytes << 20
        configuration.maxJobPixelFrames = Int((maxJobGigapixelFrames * 1e9).rounded())
        configuration.jobMemoryBytes = jobMemoryMegabytes << 20
        configuration.jobTimeLimit = Self.duration(jobTimeLimit)
        configuration.jobNiceness = Int32(jobNiceness)
        configuration.clientAddressHeader = clientAddressHeader
        configuration.connections.maxConnections = maxConnections
        configuration.connections.idleTimeout = Self.duration(idleTimeout)
        configuration.connections.headerTimeout = Self.duration(headerTimeout)
        configuration.connections.bodyTimeout = Self.duration(bodyTimeout)
        configuration.connections.sendTimeout = Self.duration(sendTimeout)
        configuration.connections.shutdownGrace = Self.duration(shutdownGrace)
        return configuration
    }

    func run() async throws {
        AllocatorTuning.configure()
        var logger = Logger(label: "fluidgradient-studio")
        logger.logLevel = .info
        let studio = Studio(configuration: studioConfiguration)
        let limit = studio.raiseDescriptorLimit()
        let cap = studio.connectionCap, room = studio.descriptorRoom
        guard room >= 16 else {
            FileHandle.standardError.write(
                Data(
                    ("fluidgradient-studio: the descriptor limit of \(limit) leaves room for \(max(0, room)) "
                        + "connections once the jobs' descriptors are kept free; raise it (ulimit -n) or lower "
                        + "--max-jobs\n").utf8))
            throw ExitCode(3)
        }
        logger.info("serving at most \(cap) connections (descriptor limit \(limit))")
        let app = studio.application(logger: logger)
        let trimming = Task { await AllocatorTuning.trimPeriodically() }
        defer { trimming.cancel() }
        do {
            try await app.runService()
        } catch {
            FileHandle.standardError.write(Data("fluidgradient-studio: the server failed: \(error)\n".utf8))
            throw ExitCode(3)
        }
    }

    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            var message = message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
            if let first = message.split(separator: "\n").first { message = String(first) }
            FileHandle.standardError.write(
                Data("fluidgradient-studio: \(message) (see `fluidgradient-studio --help`)\n".utf8))
            Foundation.exit(2)
        }
        Foundation.exit(0)
    }
}
