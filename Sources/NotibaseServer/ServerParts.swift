import Foundation
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
package import NotibaseWebhooks
import NotibaseServices
package import NotibaseAPI
package import NotibaseDelivery

/// The store-side parts of one node, wired in one place: the API's context and its services, the
/// work signals, the ``Handoff``, the fan-out, the delivery workers, the credential monitor and the
/// metrics. `notibase serve` (``Server/start(_:senders:logger:clock:doctor:)``) puts an HTTP server
/// in front of them and ``start()``s their loops; the tests' harness drives the same loops a step
/// at a time, so an in-process test runs what a server runs (docs/decisions/0033).
package struct ServerParts: Sendable {
    /// What only a test changes.
    package struct Options: Sendable {
        /// When the workers retry and give up.
        package var policy = RetryPolicy()
        /// The fan-out's smallest batch while batches are slow (``BatchPacing``); nil keeps every
        /// batch at the configured size.
        package var fanOutMinimumBatchSize: Int? = BatchPacing.defaultMinimum
        /// The handoff to use (a test's, to look into); nil makes one with room for a batch for
        /// each worker.
        package var handoff: Handoff?
        /// The rate limiter's clock and the message quota's (a test stops or drives them).
        package var rateClock: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
        package var quotaClock: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
        /// The webhook transport (a test's double); nil makes the HTTPS one the configuration asks for.
        package var webhookTransport: (any WebhookTransport)?

        package init(policy: RetryPolicy = RetryPolicy(), fanOutMinimumBatchSize: Int? = BatchPacing.defaultMinimum, handoff: Handoff? = nil, rateClock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }, quotaClock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }, webhookTransport: (any WebhookTransport)? = nil) {
            self.policy = policy
            self.fanOutMinimumBatchSize = fanOutMinimumBatchSize
            self.handoff = handoff
            self.rateClock = rateClock
            self.quotaClock = quotaClock
            self.webhookTransport = webhookTransport
        }
    }

    package let store: any Storage
    /// What the routes use: the services, keys, limits.
    package let context: APIContext
    /// Wake the fan-out and the workers when this node (or, on PostgreSQL, another) made work.
    package let signals: WorkSignals
    /// What the fan-out and posts wrote claimed for this node's workers.
    package let handoff: Handoff
    package let fanOut: FanOut
    /// One worker, run by ``ServerConfiguration/Delivery/workers`` loops.
    package let worker: DeliveryWorker
    package let monitor: CredentialMonitor
    package let metrics: Metrics
    package let signer: Signer
    /// Sends the apps' webhook endpoints their events.
    package let webhooks: WebhookDispatcher
    /// The queue settings the loops run with, and how often the queue's depth is measured.
    private let delivery: ServerConfiguration.Delivery
    private let queueDepthInterval: Duration
    private let clock: WallClock
    private let logger: Logger

    /// The parts over `store` for `configuration`: its limits, its queue settings, its metrics
    /// token. `secretKey` seals credentials and signs receipts and identity tokens.
    package static func make(
        store: any Storage, configuration: ServerConfiguration, senders: SenderSet, secretKey: [UInt8], adminKeyHash: [UInt8], logger: Logger,
        clock: WallClock, doctor: (any PayloadDoctor)? = nil, options: Options = Options()
    ) throws -> ServerParts {
        let box = try SecretBox(key: secretKey)
        let webhookTransport = options.webhookTransport ?? HTTPSWebhookTransport(allowInsecure: configuration.webhookAllowInsecure)
        let signer = Signer(secretKey: secretKey)
        let trial = TrialSetting.settings(configuration, senders: senders)
        let metrics = Metrics(trial: trial)
        let signals = WorkSignals()
        let delivery = configuration.delivery
        let monitor = CredentialMonitor(store: store, logger: logger, clock: clock)
        // A batch's worth for each worker waits at most.
        let handoff = options.handoff ?? DeliveryLoops.handoff(workers: delivery.workers, batchSize: delivery.batchSize)
        let credentialsRequired = if case .stored = senders.credentials { true } else { false }
        let tester = credentialsRequired ? CredentialTester(store: store, box: box, senders: senders, clock: clock, logger: logger, metrics: metrics, monitor: monitor) : nil
        let auth = Authenticator(store: store, adminKeyHash: adminKeyHash)
        let limits = configuration.limits
        let services = APIContext.Services(
            messages: MessageService(
                store: store, auth: auth, clock: clock, logger: logger, metrics: metrics, limits: limits,
                quota: MessageQuota(perMinute: limits.appMessagesPerMinute, now: options.quotaClock), signals: signals, handoff: (handoff, delivery.lease),
                credentialMonitor: monitor, credentialsRequired: credentialsRequired),
            receipts: ReceiptService(store: store, clock: clock, metrics: metrics),
            apps: AppService(store: store, auth: auth, box: box, clock: clock, logger: logger),
            users: UserService(store: store, clock: clock, logger: logger),
            devices: DeviceService(store: store, signer: signer, clock: clock, handoff: handoff),
            webhooks: WebhookService(store: store, box: box, clock: clock, logger: logger, endpointsPerApp: limits.webhookEndpointsPerApp),
            liveActivities: LiveActivityService(store: store, clock: clock))
        let context = APIContext(
            auth: auth, limiter: RateLimiter(rates: limits.rates, now: options.rateClock), signer: signer, metrics: metrics, logger: logger, clock: clock,
            limits: limits, services: services, doctor: doctor, metricsTokenHash: try configuration.metricsToken.map { try Crypto.sha256($0.utf8) },
            webhookTransport: webhookTransport, trial: trial, credentialTests: tester)
        let loops = DeliveryLoops.make(
            store: store, senders: senders, box: box, signer: signer, metrics: metrics, signals: signals, monitor: monitor, clock: clock, logger: logger,
            settings: DeliveryLoops.Settings(
                fanOutBatchSize: delivery.fanOutBatchSize, fanOutMinimumBatchSize: options.fanOutMinimumBatchSize, batchSize: delivery.batchSize,
                lease: delivery.lease, policy: options.policy),
            handoff: handoff, posted: { [posts = context.messages.posts] in posts.submitted })
        let webhooks = WebhookDispatcher(
            store: store, transport: webhookTransport, box: box, clock: clock, logger: logger, metrics: metrics, options: .init(retention: delivery.retention))
        return ServerParts(
            store: store, context: context, signals: signals, handoff: handoff, fanOut: loops.fanOut, worker: loops.worker, monitor: monitor, metrics: metrics,
            signer: signer, webhooks: webhooks, delivery: delivery, queueDepthInterval: configuration.queueDepthInterval, clock: clock, logger: logger)
    }

    /// Starts the loops `notibase serve` runs, until their tasks are cancelled: the fan-out, the
    /// workers, the queue depth probe, retention and the webhooks; on PostgreSQL, listening for other nodes' work.
    package func start() -> [Task<Void, Never>] {
        // On PostgreSQL other nodes' work wakes this one too, so it can look less often on its own;
        // another node's change to an app makes this one forget what it resolved of the apps.
        let listening = store.listen { [signals, auth = context.auth] work in
            signals.notify(work)
            auth.hear(work)
        }
        let poll = listening ? max(delivery.pollInterval, ServerConfiguration.Delivery.listeningPollInterval) : delivery.pollInterval
        var tasks = [Task(priority: Server.backgroundPriority) { [fanOut] in await fanOut.run(interval: poll) }]
        for _ in 0..<max(1, delivery.workers) {
            tasks.append(Task(priority: Server.deliveryPriority) { [worker] in await worker.run(idle: poll) })
        }
        let probe = QueueDepthProbe(store: store, metrics: metrics, logger: logger)
        tasks.append(Task(priority: Server.backgroundPriority) { [queueDepthInterval] in await probe.run(interval: queueDepthInterval) })
        let retention = Retention(store: store, clock: clock, logger: logger, period: delivery.retention)
        tasks.append(Task(priority: Server.backgroundPriority) { await retention.run(interval: .seconds(60)) })
        tasks.append(Task(priority: Server.backgroundPriority) { [webhooks] in await webhooks.run(interval: .milliseconds(200)) })
        return tasks
    }
}
