import Foundation

/// The simulated notification daemon of one device: the registered categories, the notifications
/// on screen, the authorization decision, and the thread that answers reads.
///
/// Requests are processed in the order they are made: a write applies after the write latency (at
/// once by default), a read takes its
/// snapshot when it is made and is answered later on the system thread, after the read latency, in
/// order. The state holds only immutable shim objects, behind `state`'s lock.
final class NotificationSystem: Sendable {
    private struct State {
        var categories: Set<UNNotificationCategory> = []
        var delivered: [UNNotification] = []
        var authorizationAnswer = true
        var authorizationDecision: Bool?
        var authorizationPrompts = 0
        var authorizationFailure: UNError.Code?
        var readLatency = SimulatedLatency.immediate
        var sampler = SimulatedLatency.Sampler(.immediate)
        var lastAnswer = ContinuousClock.now
        var hungReads: [@Sendable () -> Void] = []
        var categoryWriteLatency = SimulatedLatency.immediate
        var writeSampler = SimulatedLatency.Sampler(.immediate)
        /// Writes not applied yet, in the order they were made (due times never decrease).
        var pendingWrites: [(due: ContinuousClock.Instant?, categories: Set<UNNotificationCategory>)] = []

        /// Applies every write that is due, in order; a write that never applies (`.never`) holds
        /// back the ones after it, as one queue of requests would.
        mutating func applyDueWrites(now: ContinuousClock.Instant = .now) {
            while let first = pendingWrites.first, let due = first.due, due <= now {
                categories = first.categories
                pendingWrites.removeFirst()
            }
        }
    }

    private let state = Locked(State())
    private let thread: SystemThread
    /// Binds the owning device as `SimulatedDevice.current` around everything run on its threads.
    let bind: @Sendable (() -> Void) -> Void

    init(name: String, bind: @escaping @Sendable (() -> Void) -> Void) {
        thread = SystemThread(name: "UserNotificationsShim system (\(name))")
        self.bind = bind
    }

    deinit {
        thread.shutdown()
    }

    // MARK: Settings

    var readLatency: SimulatedLatency {
        get { state[\.readLatency] }
        set {
            state.withLock {
                $0.readLatency = newValue
                $0.sampler = SimulatedLatency.Sampler(newValue)
            }
        }
    }

    var categoryWriteLatency: SimulatedLatency {
        get { state[\.categoryWriteLatency] }
        set {
            state.withLock {
                $0.categoryWriteLatency = newValue
                $0.writeSampler = SimulatedLatency.Sampler(newValue)
            }
        }
    }

    var authorizationAnswer: Bool {
        get { state[\.authorizationAnswer] }
        set { state[\.authorizationAnswer] = newValue }
    }

    var authorizationFailure: UNError.Code? {
        get { state[\.authorizationFailure] }
        set { state[\.authorizationFailure] = newValue }
    }

    var authorizationPrompts: Int {
        state[\.authorizationPrompts]
    }

    // MARK: Categories

    /// Queues a write: it takes effect after the write latency, after every earlier write. Until
    /// then reads, and notifications displayed, see the set as it was.
    func setCategories(_ categories: Set<UNNotificationCategory>) {
        state.withLock { state in
            let delay = state.writeSampler.next()
            if delay == .zero, state.pendingWrites.isEmpty {
                state.categories = categories
                return
            }
            let due = delay.map { ContinuousClock.now + $0 }
            let previous = state.pendingWrites.last?.due ?? ContinuousClock.now
            state.pendingWrites.append((due.map { max($0, previous) }, categories))
        }
    }

    /// What the system holds right now: what a notification displayed now is drawn with.
    var categories: Set<UNNotificationCategory> {
        state.withLock { state in
            state.applyDueWrites()
            return state.categories
        }
    }

    func readCategories(_ answer: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        read(\.categories, answer)
    }

    // MARK: Delivered notifications

    /// Adds a notification to those on screen, replacing one with the same request identifier.
    func addDelivered(_ notification: UNNotification) {
        state.withLock { state in
            state.delivered.removeAll { $0.request.identifier == notification.request.identifier }
            state.delivered.append(notification)
        }
    }

    func removeDelivered(identifiers: [String]) {
        let identifiers = Set(identifiers)
        state.withLock { $0.delivered.removeAll { identifiers.contains($0.request.identifier) } }
    }

    func removeAllDelivered() {
        state.withLock { $0.delivered.removeAll() }
    }

    func delivered(identifier: String) -> UNNotification? {
        state.withLock { $0.delivered.first { $0.request.identifier == identifier } }
    }

    func readDelivered(_ answer: @escaping @Sendable ([UNNotification]) -> Void) {
        read(\.delivered, answer)
    }

    // MARK: Authorization

    /// Prompts on the first request only; later requests get the first decision.
    func requestAuthorization(_ answer: @escaping @Sendable (Bool, UNError?) -> Void) {
        let (granted, failure) = state.withLock { state -> (Bool, UNError.Code?) in
            if let failure = state.authorizationFailure { return (false, failure) }
            if let decision = state.authorizationDecision { return (decision, nil) }
            state.authorizationPrompts += 1
            state.authorizationDecision = state.authorizationAnswer
            return (state.authorizationAnswer, nil)
        }
        schedule { answer(granted, failure.map { UNError($0) }) }
    }

    // MARK: Answers

    private func read<Value>(_ field: KeyPath<State, Value>, _ answer: @escaping @Sendable (Value) -> Void) {
        let snapshot = Unchecked(state.withLock { state in
            state.applyDueWrites()
            return state[keyPath: field]
        })
        schedule { answer(snapshot.value) }
    }

    /// Runs `answer` on the system thread after the read latency, after every earlier answer.
    private func schedule(_ answer: @escaping @Sendable () -> Void) {
        let bind = bind
        let job: @Sendable () -> Void = { bind(answer) }
        let due = state.withLock { state -> ContinuousClock.Instant? in
            guard let delay = state.sampler.next() else {
                // Kept, never run: a hung read holds on to what it would have answered.
                state.hungReads.append(job)
                return nil
            }
            state.lastAnswer = max(ContinuousClock.now + delay, state.lastAnswer)
            return state.lastAnswer
        }
        if let due {
            thread.schedule(at: due, job)
        }
    }
}
