import Foundation
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseOutbound

/// Sends each endpoint its events (docs/server.md, "Webhooks"; docs/decisions/0037): feeds the
/// stream, leases the endpoints that have something due (several nodes share them, as they share
/// deliveries), and sends each its next batch, one request at a time per endpoint, in order.
///
/// A batch is fixed before it is first sent (its `webhook-id` and its last event are stored) and
/// sent again as it was until it arrives or is given up: a node that dies while sending it leaves
/// it to the next lease, which sends the same `webhook-id`. Each endpoint's batch is a task of its
/// own, so a slow endpoint holds up only itself; at most ``Options/endpointsAtOnce`` are in flight,
/// leased in turns across apps, each app within its share (``Options/sharedSlots``).
package actor WebhookDispatcher {
    package struct Options: Sendable {
        /// The most events in one request while no more than that are waiting.
        package var batchSize = 500
        /// While more than ``batchSize`` events are waiting (an endpoint behind, as during a large
        /// send), the most in one request: fewer requests, signatures and store calls per event.
        package var behindBatchSize = 5_000
        /// A request grown past ``batchSize`` events takes another only while its body stays
        /// within this many bytes.
        package var behindBatchBytes = 1 << 20
        /// How long the first event of a batch that is not full waits for others.
        package var batchWait: Duration = .seconds(1)
        /// One request's whole deadline.
        package var timeout: Duration = .seconds(10)
        /// Endpoints sent to at once (each one request at a time), shared among the apps: an app
        /// holds at most its share of ``sharedSlots`` (those divided among the apps with an endpoint
        /// due or in flight here), and the rest are kept for an app whose endpoint comes due
        /// while others are busy (issue 43).
        package var endpointsAtOnce = 32
        /// The slots the apps' shares divide: all but a quarter of ``endpointsAtOnce`` (at least
        /// one), kept so that an app arriving never waits for another app's slow endpoints.
        package var sharedSlots: Int { max(1, endpointsAtOnce - max(1, endpointsAtOnce / 4)) }
        /// Rows the feed moves in one transaction.
        package var feedBatch = 2_000
        /// How long the stream keeps an event (nil: until the app or its endpoints go).
        package var retention: Duration?
        package var policy = WebhookRetryPolicy()

        package init(batchSize: Int = 500, behindBatchSize: Int = 5_000, behindBatchBytes: Int = 1 << 20, batchWait: Duration = .seconds(1), timeout: Duration = .seconds(10), endpointsAtOnce: Int = 32, feedBatch: Int = 2_000, retention: Duration? = nil, policy: WebhookRetryPolicy = WebhookRetryPolicy()) {
            self.batchSize = batchSize
            self.behindBatchSize = behindBatchSize
            self.behindBatchBytes = behindBatchBytes
            self.batchWait = batchWait
            self.timeout = timeout
            self.endpointsAtOnce = endpointsAtOnce
            self.feedBatch = feedBatch
            self.retention = retention
            self.policy = policy
        }
    }

    private let store: any WebhookDispatchStore
    private let transport: any WebhookTransport
    private let box: SecretBox
    private let clock: WallClock
    private let logger: Logger
    private let metrics: Metrics?
    private let options: Options
    /// This dispatcher's name in leases.
    private let owner = UUID().uuidString
    private let random: @Sendable () -> Double
    private var inFlight: [String: Task<Void, Never>] = [:]
    /// How many events this dispatcher has read from the stream (each made into its text as it is
    /// read): what a backlog costs it.
    package private(set) var eventsRead = 0
    /// Ends the run loop's wait early: an endpoint was just delivered to (``run(interval:)``).
    private let hurry = WorkSignal()

    package init(
        store: any WebhookDispatchStore, transport: any WebhookTransport, box: SecretBox, clock: WallClock = .system, logger: Logger = .silent,
        metrics: Metrics? = nil, options: Options = Options(), random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.store = store
        self.transport = transport
        self.box = box
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.options = options
        self.random = random
    }

    /// How long a lease lasts: a request's deadline and room to record it.
    private var lease: Duration { options.timeout * 2 + .seconds(30) }

    /// Feeds the stream until it has caught up, sends every endpoint due now its next batch and
    /// waits for them; returns how many endpoints it looked at.
    @discardableResult
    package func runOnce() async throws -> Int {
        try await feed()
        let leased = try await leaseDue(limit: options.endpointsAtOnce)
        await withTaskGroup(of: Void.self) { group in
            for endpoint in leased { group.addTask { _ = await self.dispatch(endpoint) } }
        }
        return leased.count
    }

    /// Runs until cancelled: every `interval` feeds, purges what retention no longer keeps, and
    /// starts a task for each endpoint due while fewer than ``Options/endpointsAtOnce`` are in flight.
    /// An endpoint whose batch was just answered with success may have the next one waiting: the
    /// pass runs again at once rather than after its interval (a million-device send is two
    /// thousand batches to each endpoint).
    package func run(interval: Duration) async {
        var lastPurge = ContinuousClock.now - .seconds(3_600)
        while !Task.isCancelled {
            let generation = hurry.generation
            do {
                try await feed()
                if ContinuousClock.now - lastPurge > .seconds(60) {
                    lastPurge = .now
                    try await purge()
                }
                for endpoint in try await leaseDue(limit: options.endpointsAtOnce - inFlight.count) {
                    inFlight[endpoint.id] = Task {
                        let delivered = await self.dispatch(endpoint)
                        self.finished(endpoint.id)
                        if delivered { self.hurry.notify() }
                    }
                }
            } catch {
                logger.warning("webhooks: a pass failed; trying again", ["error": .string("\(error)")])
            }
            await hurry.wait(since: generation, timeout: interval)
        }
        for task in inFlight.values { await task.value }
    }

    private func finished(_ id: String) { inFlight[id] = nil }

    /// The dispatchers' own CPU work (a batch's size, its body, its signature: a grown batch is
    /// a megabyte) runs on one thread of its own below the server's other threads (nice 10, as
    /// audience counts, decision 0042): on Swift's shared threads, as many as the cores, it made
    /// the store's calls wait their turn, and a large send with an endpoint took longer. Events
    /// are behind by what the sends need; the sends are not.
    private static let lane = LaneThread(name: "nb-webhooks", niceness: 10)

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            lane.run { continuation.resume(with: Result { try work() }) }
        }
    }

    private func feed() async throws {
        while try await store.feedWebhookEvents(limit: options.feedBatch) >= options.feedBatch, !Task.isCancelled {}
    }

    private func purge() async throws {
        guard let retention = options.retention else { return }
        let before = clock.milliseconds() - retention.milliseconds
        while try await store.purgeWebhookEvents(before: before, limit: 10_000) > 0, !Task.isCancelled {}
    }

    private func leaseDue(limit: Int) async throws -> [WebhookEndpointRecord] {
        guard limit > 0 else { return [] }
        let now = clock.milliseconds()
        return try await store.leaseWebhookEndpoints(owner: owner, now: now, until: now + lease.milliseconds, limit: limit, slots: options.sharedSlots)
    }

    /// Sends a leased endpoint its batch (fixing the next one first when none is in flight), and
    /// stores the outcome.
    /// Returns whether a batch was delivered (answered with success).
    private func dispatch(_ endpoint: WebhookEndpointRecord) async -> Bool {
        do {
            return try await send(endpoint)
        } catch {
            logger.warning("webhooks: an endpoint's batch failed to be stored; its lease ends by itself", [
                "endpointId": .string(endpoint.id), "error": .string("\(error)"),
            ])
            return false
        }
    }

    @discardableResult
    private func send(_ endpoint: WebhookEndpointRecord) async throws -> Bool {
        var state = endpoint.dispatch
        let now = clock.milliseconds()
        let events: [WebhookEventRecord]
        // The events read after the batch: the next batch's, when they fill it.
        var ahead: ArraySlice<WebhookEventRecord> = []
        if let batchLast = state.batchLast, state.batchID != nil {
            events = try await readEvents(endpoint, after: state.cursor, through: batchLast).filter { endpoint.wants($0.type) }
        } else {
            let waiting = try await readEvents(endpoint, after: state.cursor, through: nil)
            let next = waiting.prefix(try await Self.offload { [options] in options.batchLength(waiting) })
            guard let last = next.last else {
                _ = try await save(endpoint, state, attempt: nil, release: true)
                return false
            }
            let wanted = next.filter { endpoint.wants($0.type) }
            if !wanted.isEmpty, next.count < options.batchSize, now - next[0].at < options.batchWait.milliseconds {
                // Not full yet: the batch waits for more, at most a wait after its first event.
                state.nextAttemptAt = next[0].at + options.batchWait.milliseconds
                _ = try await save(endpoint, state, attempt: nil, release: true)
                return false
            }
            state.fix(last: last.seq)
            if wanted.isEmpty {
                // Nothing this endpoint wants: past them without a request.
                state = WebhookDispatchState(cursor: last.seq, failingSince: state.failingSince)
                _ = try await save(endpoint, state, attempt: nil, release: true)
                return false
            }
            guard try await save(endpoint, state, attempt: nil, release: false) else { return false }
            events = wanted
            ahead = waiting[next.count...]
        }
        guard state.batchID != nil else { return false }
        if events.isEmpty {
            // Its events went with retention: nothing is left to send.
            _ = try await save(endpoint, WebhookDispatchState(cursor: state.batchLast ?? state.cursor, failingSince: state.failingSince), attempt: nil, release: true)
            return false
        }
        return try await deliver(endpoint, state, events, ahead: ahead, leased: now)
    }

    /// Sends the batch `state` fixed (its wanted `events`) and stores the outcome. Delivered while
    /// the lease is young (leased at `leased`: a request's deadline ago at most) and with a full
    /// batch waiting, the endpoint keeps its lease and that batch follows at once: its fixing is
    /// stored with the outcome, one write where a new pass took four (the feed, the lease, the
    /// fixing, the outcome), each waiting its turn on SQLite's one writer behind a large send.
    ///
    /// `ahead` are the events read after the batch, up to where the read stopped: while they hold
    /// more than the next batch takes, that batch is made of them and not read again. A read takes
    /// up to ``Options/mostInABatch`` events and a batch of a large send's events stops at its bytes
    /// after some 1,600 of 5,000: read afresh for each batch, every event was read and made into
    /// its text three times.
    private func deliver(
        _ endpoint: WebhookEndpointRecord, _ fixed: WebhookDispatchState, _ batch: [WebhookEventRecord], ahead: ArraySlice<WebhookEventRecord>, leased: Int
    ) async throws -> Bool {
        var (state, events, ahead) = (fixed, batch, ahead)
        while let batchID = state.batchID {
            let (next, attempt, delivered) = try await post(endpoint, state, events, batchID: batchID)
            if delivered, clock.milliseconds() - leased < options.timeout.milliseconds,
                case let (following, wanted, rest)? = try await fullBatch(endpoint, after: next, ahead: ahead) {
                guard try await save(endpoint, following, attempt: attempt, release: false) else { return false }
                (state, events, ahead) = (following, wanted, rest)
                continue
            }
            return try await save(endpoint, next, attempt: attempt, release: true) && delivered
        }
        return false
    }

    /// The batch after `state`'s cursor when a full one is waiting (at least ``Options/batchSize``
    /// events, some of them wanted): the state that fixes it, its wanted events, and the events
    /// read after it. Made of `ahead` (the events read right after the cursor) when the batch ends
    /// before they do, as a read would make it; read otherwise.
    private func fullBatch(
        _ endpoint: WebhookEndpointRecord, after state: WebhookDispatchState, ahead: ArraySlice<WebhookEventRecord>
    ) async throws -> (WebhookDispatchState, [WebhookEventRecord], ahead: ArraySlice<WebhookEventRecord>)? {
        var waiting = ahead
        var length = try await Self.offload { [options, waiting] in options.batchLength(waiting, ended: false) }
        if length == nil {
            waiting = try await readEvents(endpoint, after: state.cursor, through: nil)[...]
            length = try await Self.offload { [options, waiting] in options.batchLength(waiting) }
        }
        let next = waiting.prefix(length ?? 0)
        let wanted = next.filter { endpoint.wants($0.type) }
        guard next.count >= options.batchSize, let last = next.last, !wanted.isEmpty else { return nil }
        var fixed = state
        fixed.fix(last: last.seq)
        return (fixed, wanted, waiting[(waiting.startIndex + next.count)...])
    }

    /// One request of the batch `state` fixed: the state after it, the attempt to record, and
    /// whether it was delivered (answered with success).
    private func post(
        _ endpoint: WebhookEndpointRecord, _ state: WebhookDispatchState, _ events: [WebhookEventRecord], batchID: String
    ) async throws -> (WebhookDispatchState, WebhookAttemptRecord, delivered: Bool) {
        let sentAt = clock.milliseconds()
        let keys = try keys(endpoint, now: sentAt)
        let (body, signature) = try await Self.offload {
            let body = WebhookBatchBody.encode(events, at: sentAt)
            return (body, try WebhookSignature.header(id: batchID, timestamp: sentAt / 1_000, body: body, keys: keys))
        }
        let request = WebhookRequest(
            appID: endpoint.appID, url: endpoint.url,
            headers: [("webhook-id", batchID), ("webhook-timestamp", String(sentAt / 1_000)), ("webhook-signature", signature)],
            body: body, timeout: options.timeout)
        let answer = await transport.post(request)
        metrics?.recordWebhookRequest(answer, events: events.count)
        let after = clock.milliseconds()
        let (next, retryAt) = options.policy.after(answer.outcome, state, now: after, random: random())
        if !next.enabled {
            logger.warning("webhooks: an endpoint failed for days and was disabled", ["endpointId": .string(endpoint.id), "appId": .string(endpoint.appID)])
        }
        let attempt = WebhookAttemptRecord(
            batchID: batchID, events: events.count, at: sentAt, outcome: Self.outcomeName(answer.outcome), status: Self.status(answer.outcome),
            latencyMilliseconds: answer.latency.milliseconds, answer: Self.answerText(answer), nextRetryAt: retryAt)
        guard case .answered(let status, _) = answer.outcome else { return (next, attempt, false) }
        return (next, attempt, (200..<300).contains(status))
    }

    /// Up to ``Options/mostInABatch`` of the endpoint's events after `after` (up to `through`),
    /// counted in ``eventsRead``.
    private func readEvents(_ endpoint: WebhookEndpointRecord, after: Int, through: Int?) async throws -> [WebhookEventRecord] {
        let events = try await store.webhookEvents(appID: endpoint.appID, endpointID: endpoint.id, after: after, through: through, limit: options.mostInABatch)
        eventsRead += events.count
        return events
    }

    private func save(_ endpoint: WebhookEndpointRecord, _ state: WebhookDispatchState, attempt: WebhookAttemptRecord?, release: Bool) async throws -> Bool {
        try await store.saveWebhookDispatch(
            endpointID: endpoint.id, owner: owner, revision: endpoint.revision, state, attempt: attempt, release: release, now: clock.milliseconds())
    }

    /// The endpoint's secret, and the one it replaced while that one still signs.
    private func keys(_ endpoint: WebhookEndpointRecord, now: Int) throws -> [[UInt8]] {
        var sealed = [endpoint.sealedSecret]
        if let previous = endpoint.sealedPreviousSecret, let until = endpoint.previousSecretUntil, now < until { sealed.append(previous) }
        return try sealed.compactMap { sealed in
            try box.open(sealed, context: WebhookSecrets.context(endpoint.id)).flatMap { WebhookSignature.key(of: String(decoding: $0, as: UTF8.self)) }
        }
    }

    package static func outcomeName(_ outcome: WebhookAttempt.Outcome) -> String {
        switch outcome {
        case .answered: "answered"
        case .refused: "refused"
        case .timedOut: "timed_out"
        case .failed: "failed"
        }
    }

    package static func status(_ outcome: WebhookAttempt.Outcome) -> Int? {
        if case .answered(let status, _) = outcome { status } else { nil }
    }

    /// The answer's first bytes, or why there was none (at most 1 KB of text, as the transport read it).
    package static func answerText(_ attempt: WebhookAttempt) -> String {
        if case .answered = attempt.outcome { return String(attempt.answerPrefix.prefix(1_024)) }
        return WebhookRetryPolicy.describe(attempt.outcome)
    }
}

extension WebhookDispatchState {
    /// Fixes the next batch: a new `webhook-id`, its last event, no attempt yet.
    package mutating func fix(last: Int) {
        batchID = "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        batchLast = last
        batchAttempts = 0
    }
}

extension WebhookDispatcher.Options {
    /// The most events a batch may hold: what a read of the waiting events asks for, and of a
    /// batch in flight (its last event bounds it).
    package var mostInABatch: Int { max(batchSize, behindBatchSize) }

    /// How many of the `waiting` events (read up to ``mostInABatch``) the next batch holds: all
    /// of them up to ``batchSize``; past it, while its body stays within ``behindBatchBytes``.
    package func batchLength(_ waiting: some Collection<WebhookEventRecord>) -> Int {
        batchLength(waiting, ended: true)!
    }

    /// ``batchLength(_:)``, or nil when `waiting` may not be all there is (`ended` false) and the
    /// batch would take every one of them: more events could belong to it.
    package func batchLength(_ waiting: some Collection<WebhookEventRecord>, ended: Bool) -> Int? {
        guard waiting.count > batchSize else { return ended ? waiting.count : nil }
        var bytes = WebhookBatchBody.envelopeBytes
        var sizes = WebhookBatchBody.Sizes()
        for (index, event) in waiting.enumerated() {
            bytes += sizes.bytes(of: event)
            if index >= batchSize, bytes > behindBatchBytes || index >= behindBatchSize { return index }
        }
        return ended ? waiting.count : nil
    }
}

/// Where an endpoint's secret is sealed for: its own ID, so a sealed secret copied to another row does not open.
package enum WebhookSecrets {
    package static func context(_ endpointID: String) -> String { "webhook:" + endpointID }
}
