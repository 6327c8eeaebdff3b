import Foundation
import NotibaseCore
import NotibaseSenders
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// Claims due deliveries in batches with a lease, renders them with the core, hands them to the
/// platform's sender, and records each outcome as the retry policy decides.
///
/// At-least-once: a delivery is only final once its outcome is recorded. If the process dies
/// between sending and recording, the lease expires and the delivery is sent again; duplicates are
/// bounded by the batches in flight.
package final class DeliveryWorker: Sendable {
    package struct Options: Sendable {
        package var batchSize = 1_000
        package var lease: Duration = .seconds(30)
        package var policy = RetryPolicy()

        package init(batchSize: Int = 1_000, lease: Duration = .seconds(30), policy: RetryPolicy = RetryPolicy()) {
            self.batchSize = batchSize
            self.lease = lease
            self.policy = policy
        }
    }

    private let store: any DeliveryQueueStore
    private let senders: SenderSet
    private let vault: CredentialVault
    private let clock: WallClock
    private let logger: Logger
    private let metrics: Metrics
    private let signer: Signer
    private let options: Options
    private let signal: WorkSignal
    /// What this node's fan-out wrote claimed for it, when it hands batches over.
    private let handoff: Handoff?
    /// Told how each batch went with each app's stored credentials.
    private let monitor: CredentialMonitor?

    init(
        store: any DeliveryQueueStore, senders: SenderSet, vault: CredentialVault, clock: WallClock, logger: Logger, metrics: Metrics, signer: Signer,
        options: Options, signal: WorkSignal = WorkSignal(), handoff: Handoff? = nil, monitor: CredentialMonitor? = nil
    ) {
        self.monitor = monitor
        self.handoff = handoff
        self.signal = signal
        self.signer = signer
        self.store = store
        self.senders = senders
        self.vault = vault
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.options = options
    }

    /// Claims (or takes from the ``Handoff``), sends and records one batch; returns how many
    /// deliveries it handled.
    @discardableResult
    package func runOnce() async throws -> Int {
        let batch = try await nextBatch()
        let claimed = batch.deliveries
        guard !claimed.isEmpty else { return 0 }
        var plan = try await prepare(claimed, known: batch.messages)
        let outcomes = await send(plan.pushes)
        let now = clock.now()
        for (index, item) in plan.pushes.enumerated() {
            plan.updates.append(update(for: item, outcome: outcomes[index], now: now))
        }
        try await store.recordDeliveries(plan.updates, messageSeqs: Set(claimed.map(\.messageSeq)), now: clock.milliseconds())
        return claimed.count
    }

    /// A handed-off batch and a claim take turns; a claim that finds nothing takes a handed-off
    /// batch instead.
    private func nextBatch() async throws -> Handoff.Batch {
        if let batch = handoff?.take() { return batch }
        let claimed = try await store.claimDeliveries(
            now: clock.milliseconds(), lease: Int(options.lease.seconds * 1000), limit: options.batchSize)
        if claimed.isEmpty, let batch = handoff?.takeAny() { return batch }
        return Handoff.Batch(deliveries: claimed)
    }

    /// Runs until cancelled; when nothing is due, waits `idle` or until deliveries are signalled.
    package func run(idle: Duration) async {
        while !Task.isCancelled {
            let generation = signal.generation
            do {
                if try await runOnce() == 0 { await signal.wait(since: generation, timeout: idle) }
            } catch {
                logger.error("delivery batch failed; its deliveries return when their lease ends", ["error": .string("\(error)")])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    // MARK: Preparing

    private struct PendingPush {
        package var delivery: ClaimedDelivery
        package var push: Push
        package var queuedAt: Date
        package var expiresAt: Date?
    }

    private struct Plan {
        package var pushes: [PendingPush] = []
        /// Deliveries decided without sending (device gone, no credentials, cannot render).
        package var updates: [DeliveryUpdate] = []
    }

    /// What deliveries that share a renderer share (a key made per delivery, so not text).
    private struct RendererKey: Hashable {
        package var messageSeq: Int
        package var variant: String?
        package var platform: Platform
        package var momentAt: Int?
    }

    private enum Renderer {
        case apns(APNsRenderer)
        case fcm(FCMRenderer)
    }

    /// Renders a batch. `known` are messages handed over with it (a post's, as it stored them);
    /// the others are read, in one read: a batch of one-device messages has one message a delivery.
    private func prepare(_ claimed: [ClaimedDelivery], known: [Int: MessageRecord]) async throws -> Plan {
        var plan = Plan()
        var messages: [Int: (record: MessageRecord, content: MessageContent)] = [:]
        let unknown = Set(claimed.map(\.messageSeq)).filter { known[$0] == nil }
        for record in Array(known.values) + (unknown.isEmpty ? [] : try await store.messages(seqs: Array(unknown))) {
            if let content = record.content { messages[record.seq] = (record, content) }
        }
        var renderers: [RendererKey: Result<Renderer, RenderError>] = [:]
        var credentialsByApp: [String: [Platform: ProviderCredentials]] = [:]  // read once per app per batch
        let now = clock.now()
        for delivery in claimed {
            guard let (record, content) = messages[delivery.messageSeq] else {
                plan.updates.append(failed(delivery, "the message is no longer stored"))
                continue
            }
            if Lifecycle.stopped.contains(record.state) { continue }  // cancelling or failing already closed it
            guard let token = delivery.token, delivery.deviceActive else {
                let reason = delivery.token == nil
                    ? "the device was deleted before this was sent"
                    : "the device was deactivated before this was sent (\(delivery.deactivatedReason ?? "no reason recorded"))"
                plan.updates.append(failed(delivery, reason))
                continue
            }
            let credentials: ProviderCredentials
            switch senders.credentials {
            case .stored:
                if credentialsByApp[record.appID] == nil { credentialsByApp[record.appID] = try await vault.credentials(appID: record.appID) }
                guard let stored = credentialsByApp[record.appID]?[delivery.platform] else {
                    let provider = delivery.platform == .ios ? "apns" : "fcm"
                    plan.updates.append(failed(delivery, "the app has no \(provider.uppercased()) credentials; upload them with PUT /v1/apps/\(record.appID)/credentials/\(provider)"))
                    continue
                }
                credentials = stored.forDevice(apnsEnvironment: delivery.apnsEnvironment)
            case .notRequired:
                credentials = Self.placeholder(appID: record.appID, platform: delivery.platform).forDevice(apnsEnvironment: delivery.apnsEnvironment)
            }
            // Its TTL counts from its own moment when pacing gave it one (its local time), else from
            // the message's send time: deliveries of one moment share a renderer.
            let sendAt = Date(milliseconds: delivery.momentAt ?? record.sendAt)
            let key = RendererKey(messageSeq: delivery.messageSeq, variant: delivery.variant, platform: delivery.platform, momentAt: delivery.momentAt)
            if renderers[key] == nil {
                renderers[key] = Self.renderer(content.message(variant: delivery.variant), platform: delivery.platform, credentials: credentials, sendAt: sendAt, now: now)
            }
            let context = DeliveryContext(
                deviceToken: token, messageID: record.id, deliveryID: delivery.id, receiptSignature: signer.receiptSignature(deliveryID: delivery.id), now: now)
            do {
                let request: ProviderRequest
                switch try renderers[key]!.get() {
                case .apns(let renderer): request = .apns(try renderer.render(context))
                case .fcm(let renderer): request = .fcm(try renderer.render(context))
                }
                plan.pushes.append(PendingPush(
                    delivery: delivery, push: Push(deliveryID: delivery.id, request: request, credentials: credentials),
                    queuedAt: Date(milliseconds: delivery.scheduledAt ?? delivery.createdAt), expiresAt: content.expiresAt(sendAt: sendAt)))
            } catch {
                plan.updates.append(failed(delivery, "\(error.code): \(error)"))
            }
        }
        return plan
    }

    /// A renderer for one message, variant and platform. The TTL counts from the send time, so a
    /// retry does not restart it.
    private static func renderer(_ message: Message, platform: Platform, credentials: ProviderCredentials, sendAt: Date, now: Date) -> Result<Renderer, RenderError> {
        var message = message
        if let ttl = message.ttl { message.ttl = max(0, ttl - max(0, Int(now.timeIntervalSince(sendAt)))) }
        do {
            switch platform {
            case .ios:
                let topic: String? = if case .apns(let apns) = credentials, !apns.bundleID.isEmpty { apns.bundleID } else { nil }
                return .success(.apns(try APNsRenderer(message: message, topic: topic)))
            case .android:
                return .success(.fcm(try FCMRenderer(message: message)))
            }
        } catch {
            return .failure(error)
        }
    }

    private static func placeholder(appID: String, platform: Platform) -> ProviderCredentials {
        switch platform {
        case .ios:
            .apns(APNsCredentials(appID: appID, bundleID: "", environment: .sandbox, authentication: .token(privateKeyPEM: "", keyID: "", teamID: "")))
        case .android:
            .fcm(FCMCredentials(appID: appID, projectID: "", clientEmail: "", privateKeyPEM: ""))
        }
    }

    // MARK: Sending

    private func send(_ pending: [PendingPush]) async -> [SendOutcome] {
        let ios = pending.indices.filter { pending[$0].delivery.platform == .ios }
        let android = pending.indices.filter { pending[$0].delivery.platform == .android }
        async let iosOutcomes = send(ios.map { pending[$0].push }, platform: .ios)
        async let androidOutcomes = send(android.map { pending[$0].push }, platform: .android)
        var outcomes = [SendOutcome](repeating: SendOutcome(disposition: .retry, explanation: "not sent"), count: pending.count)
        for (index, outcome) in zip(ios, await iosOutcomes) { outcomes[index] = outcome }
        for (index, outcome) in zip(android, await androidOutcomes) { outcomes[index] = outcome }
        return outcomes
    }

    private func send(_ pushes: [Push], platform: Platform) async -> [SendOutcome] {
        guard !pushes.isEmpty else { return [] }
        let started = ContinuousClock.now
        var outcomes = await senders.sender(for: platform).send(pushes)
        if outcomes.count != pushes.count {
            logger.error("a sender returned the wrong number of outcomes; retrying the batch", ["expected": .int(pushes.count), "got": .int(outcomes.count)])
            outcomes = pushes.map { _ in SendOutcome(disposition: .retry, explanation: "the sender returned no outcome for this push") }
        }
        var counts: [String: Int] = [:]
        for outcome in outcomes { counts[outcome.disposition.rawValue, default: 0] += 1 }
        metrics.recordSends(provider: senders.providerNames[platform] ?? platform.rawValue, outcomes: counts, seconds: (ContinuousClock.now - started).seconds)
        if case .stored = senders.credentials, let monitor { await Self.observe(pushes, outcomes, monitor) }
        return outcomes
    }

    /// Tells the monitor, once per app and provider, whether the batch had a push accepted and
    /// why the provider refused the credentials when it did.
    private static func observe(_ pushes: [Push], _ outcomes: [SendOutcome], _ monitor: CredentialMonitor) async {
        struct Credentials: Hashable {
            var appID: String
            var provider: String
            var revision: Int
        }
        var seen: [Credentials: (succeeded: Bool, failureReason: String?)] = [:]
        var environments: [String: Set<APNsEnvironment>] = [:]
        for (push, outcome) in zip(pushes, outcomes) {
            let credentials = switch push.credentials {
            case .apns(let apns): Credentials(appID: apns.appID, provider: "apns", revision: apns.revision)
            case .fcm(let fcm): Credentials(appID: fcm.appID, provider: "fcm", revision: fcm.revision)
            }
            if case .apns(let apns) = push.credentials { environments[apns.appID, default: []].insert(apns.environment) }
            var entry = seen[credentials] ?? (false, nil)
            switch outcome.disposition {
            case .sent: entry.succeeded = true
            case .credentialsRejected:
                let reason = [outcome.providerReason, outcome.explanation].compactMap { $0 }.joined(separator: ": ")
                entry.failureReason = entry.failureReason ?? (reason.isEmpty ? "refused without a reason" : reason)
            case .retry, .failed, .deactivateDevice: break
            }
            seen[credentials] = entry
        }
        for (appID, used) in environments { await monitor.sentTo(used, appID: appID) }
        for (credentials, entry) in seen {
            await monitor.observe(
                appID: credentials.appID, provider: credentials.provider, revision: credentials.revision, succeeded: entry.succeeded, failureReason: entry.failureReason)
        }
    }

    // MARK: Recording

    private func update(for item: PendingPush, outcome: SendOutcome, now: Date) -> DeliveryUpdate {
        let attempt = RetryPolicy.Attempt(number: item.delivery.attempts, queuedAt: item.queuedAt, expiresAt: item.expiresAt, now: now)
        let decision = options.policy.decide(outcome, attempt: attempt, jitter: Double.random(in: 0..<1))
        if case .deactivateDevice(let reason, _) = decision {
            logger.info("device deactivated", ["deviceToken": .string(TokenRedaction.shorten(item.delivery.token ?? "")), "reason": .string(reason)])
        }
        return DeliveryUpdate(decision, for: item.delivery, outcome: outcome, now: now)
    }

    /// A delivery that fails without being sent, and why.
    private func failed(_ delivery: ClaimedDelivery, _ reason: String) -> DeliveryUpdate {
        var detail = DeliveryEventDetail(attempt: delivery.attempts)
        detail.reason = reason
        return DeliveryUpdate(seq: delivery.seq, state: .failed, detail: detail)
    }
}
