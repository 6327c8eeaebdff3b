package import NotibaseDomain
package import NotibaseStore
package import NotibaseSenders

/// The delivery loops of one node: the handoff between posts and workers, the fan-out, and a
/// worker (run by as many tasks as the node has workers). The loops' initializers are internal to
/// this target, so outside it (and its tests) only ``handoff(workers:batchSize:)`` and
/// ``make(store:senders:box:signer:metrics:signals:monitor:clock:logger:settings:handoff:posted:)``
/// build them: a node's wiring (`ServerParts`) and the tests' harness run these loops, built the
/// same way (decision 0033), and no route or service can build one of its own.
package struct DeliveryLoops: Sendable {
    /// How a node's loops run.
    package struct Settings: Sendable {
        package var fanOutBatchSize: Int
        /// The fan-out's smallest batch while batches are slow (``BatchPacing``); nil keeps every
        /// batch at ``fanOutBatchSize``.
        package var fanOutMinimumBatchSize: Int?
        /// What a worker claims at once, and for how long a claim holds.
        package var batchSize: Int
        package var lease: Duration
        /// When the workers retry and give up.
        package var policy: RetryPolicy

        package init(fanOutBatchSize: Int, fanOutMinimumBatchSize: Int?, batchSize: Int, lease: Duration, policy: RetryPolicy) {
            self.fanOutBatchSize = fanOutBatchSize
            self.fanOutMinimumBatchSize = fanOutMinimumBatchSize
            self.batchSize = batchSize
            self.lease = lease
            self.policy = policy
        }
    }

    package let handoff: Handoff
    package let fanOut: FanOut
    package let worker: DeliveryWorker

    /// The handoff of a node whose `workers` each take `batchSize` at a time: a batch's worth for
    /// each worker waits at most. The services post into it, so it is built before them.
    package static func handoff(workers: Int, batchSize: Int) -> Handoff {
        Handoff(workers: workers, batchSize: batchSize)
    }

    /// The fan-out and a worker over `store`, around `handoff`; `posted` counts the one-device
    /// messages posted on this node (``FanOut``'s pacing).
    package static func make(
        store: any Storage, senders: SenderSet, box: SecretBox, signer: Signer, metrics: Metrics, signals: WorkSignals, monitor: CredentialMonitor,
        clock: WallClock, logger: Logger, settings: Settings, handoff: Handoff, posted: @escaping @Sendable () -> Int
    ) -> DeliveryLoops {
        let fanOut = FanOut(
            store: store, clock: clock, logger: logger, metrics: metrics, batchSize: settings.fanOutBatchSize,
            minimumBatchSize: settings.fanOutMinimumBatchSize, signals: signals, handoff: (handoff, settings.lease), posted: posted)
        let worker = DeliveryWorker(
            store: store, senders: senders, vault: CredentialVault(store: store, box: box, clock: clock, logger: logger), clock: clock, logger: logger,
            metrics: metrics, signer: signer, options: DeliveryWorker.Options(batchSize: settings.batchSize, lease: settings.lease, policy: settings.policy),
            signal: signals.delivery, handoff: handoff, monitor: monitor)
        return DeliveryLoops(handoff: handoff, fanOut: fanOut, worker: worker)
    }
}
