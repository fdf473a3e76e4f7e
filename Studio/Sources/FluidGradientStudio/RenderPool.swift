import Foundation
import Synchronization

/// Threads that render frames off the event loops, with the service's render limits: at
/// most ``threadCount`` renders at once, at most ``maxWaiting`` waiting, and a deadline for
/// each request (from the time it asks to the time its frame is ready).
///
/// A request over the waiting limit is refused at once, and one past its deadline is
/// answered then; both as ``Refusal``, which the routes answer 503 with `Retry-After`.
/// A render that has started is not stopped at the deadline (the engine cannot stop inside
/// a frame): it finishes on its thread, and its caller may still keep the result.
package final class RenderPool: Sendable {
    /// Why a render was not done.
    package enum Refusal: Error, Equatable {
        /// Every thread is busy and the waiting line is full.
        case busy
        /// The deadline passed before the frame was ready.
        case deadline
    }

    private struct Queue {
        var waiting: [any PoolJob] = []
        var head = 0
        var closed = false
        /// The jobs taken in and not yet done: waiting or on a thread.
        var admitted = 0
        /// The threads started so far; they start as the first jobs come.
        var threads = 0
        /// The jobs taken in and not yet done, for ``abandon()``.
        var inFlight: [ObjectIdentifier: any PoolJob] = [:]
    }

    /// How many frames render at once.
    package let threadCount: Int
    /// How many renders may wait for a thread.
    package let maxWaiting: Int
    private let queue = Mutex(Queue())
    private let wakeup = NSCondition()

    /// A pool whose threads start with its first renders.
    ///
    /// - Parameters:
    ///   - threadCount: how many frames render at once (at least 1).
    ///   - maxWaiting: how many renders may wait for a thread (0 or more).
    package init(threadCount: Int, maxWaiting: Int) {
        self.threadCount = max(1, threadCount)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Runs `work` on a render thread and returns what it returns.
    ///
    /// - Parameters:
    ///   - deadline: when the caller stops waiting.
    ///   - work: the render; it runs at most once, and not at all when the deadline passes
    ///     while it waits.
    /// - Returns: `work`'s result.
    /// - Throws: ``Refusal`` when the line is full or the deadline passes; what `work` throws.
    package func run<T: Sendable>(deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () throws -> T)
        async throws -> T
    {
        let job = Job(work)
        return try await withCheckedThrowingContinuation { continuation in
            job.start(continuation)
            let admission = wakeup.withLock {
                queue.withLock { queue -> (admitted: Bool, newThread: Int?) in
                    guard !queue.closed, queue.admitted < threadCount + maxWaiting else { return (false, nil) }
                    queue.admitted += 1
                    queue.waiting.append(job)
                    queue.inFlight[ObjectIdentifier(job)] = job
                    guard queue.threads < min(threadCount, queue.admitted) else { return (true, nil) }
                    queue.threads += 1
                    return (true, queue.threads)
                }
            }
            guard admission.admitted else { return job.settle(.failure(Refusal.busy)) }
            if let number = admission.newThread {
                let thread = Thread { [self] in serve() }
                thread.name = "render-\(number)"
                thread.start()
            }
            wakeup.signal()
            job.expire(at: deadline)
        }
    }

    /// How many jobs are taken in and not done: on a thread or waiting for one.
    package var load: Int { queue.withLock { $0.admitted } }

    /// Stops the threads once the renders waiting now are done.
    package func shutdown() {
        wakeup.withLock { queue.withLock { $0.closed = true } }
        wakeup.broadcast()
    }

    /// Answers every caller still waiting, on a thread or for one, as past its deadline:
    /// at the end of a shutdown's grace, so that no request waits for a render. The renders
    /// under way finish on their threads, unheard.
    package func abandon() {
        let jobs = queue.withLock { Array($0.inFlight.values) }
        for job in jobs { job.abandon() }
    }

    private func serve() {
        while let job = next() {
            job.run {
                queue.withLock { queue in
                    queue.admitted -= 1
                    queue.inFlight[ObjectIdentifier(job)] = nil
                }
            }
        }
    }

    private func next() -> (any PoolJob)? {
        wakeup.lock()
        defer { wakeup.unlock() }
        while true {
            let taken: (any PoolJob)?? = queue.withLock { queue in
                if queue.head < queue.waiting.count {
                    let job = queue.waiting[queue.head]
                    queue.head += 1
                    if queue.head > 64, queue.head * 2 > queue.waiting.count {
                        queue.waiting.removeFirst(queue.head)
                        queue.head = 0
                    }
                    return .some(job)
                }
                return queue.closed ? .some(nil) : nil
            }
            if let taken { return taken }
            wakeup.wait()
        }
    }
}

/// A render waiting for, or on, a thread.
private protocol PoolJob: AnyObject, Sendable {
    /// Does the work unless the job was settled already (its deadline passed), calls
    /// `release` (the job's place is free again), then answers the caller: so a caller
    /// that asks again at once finds the place free.
    func run(then release: () -> Void)

    /// Answers the caller as past its deadline, if it was not answered yet.
    func abandon()
}

/// One render and the caller waiting for it: whichever of the result and the deadline comes
/// first answers the caller, once.
private final class Job<T: Sendable>: PoolJob, Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var settled = false
        var timer: Task<Void, Never>?
    }

    private let work: @Sendable () throws -> T
    private let state = Mutex(State())

    init(_ work: @escaping @Sendable () throws -> T) { self.work = work }

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func expire(at deadline: ContinuousClock.Instant) {
        let timer = Task { [self] in
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            settle(.failure(RenderPool.Refusal.deadline))
        }
        let alreadySettled = state.withLock { state in
            state.timer = timer
            return state.settled
        }
        if alreadySettled { timer.cancel() }
    }

    func run(then release: () -> Void) {
        guard !state.withLock({ $0.settled }) else { return release() }
        let result = Result { try work() }
        release()
        settle(result)
    }

    func abandon() { settle(.failure(RenderPool.Refusal.deadline)) }

    func settle(_ result: Result<T, any Error>) {
        let (continuation, timer) = state.withLock {
            state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?) in
            guard !state.settled else { return (nil, nil) }
            state.settled = true
            defer { state.continuation = nil }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
