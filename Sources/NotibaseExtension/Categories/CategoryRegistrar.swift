public import Foundation
public import NotibaseCore

/// Registers the category for a notification's buttons without ever losing one: the app's own
/// categories, or those other notifications registered a moment ago.
///
/// Three rules, each a bug that shipped somewhere:
/// - `setNotificationCategories` replaces the whole set, so every registration reads the set,
///   merges, and writes the union back.
/// - Several notifications arrive at once, so the whole read-merge-write is one serial section
///   (``AsyncMutex``), held across the asynchronous read; an actor alone would re-enter there.
/// - The set must not grow without bound: past ``capacity`` Notibase-owned categories, the least
///   recently used ones that no delivered notification still shows are removed. The app's
///   categories are never removed, and when the delivered notifications cannot be read nothing is;
///   nor is a category used in the last minute, whose notification may still be on its way to the
///   screen. The capacity is a target: with nothing evictable, the set grows past it.
///
/// If the read fails or times out, nothing is written: a partial set would wipe categories.
public final class CategoryRegistrar: Sendable {
    /// What a registration did.
    public enum Outcome: Sendable, Hashable {
        /// The category was added; `evicted` lists the owned categories removed to make room.
        case registered(identifier: String, evicted: Set<String>)
        /// A category with this identifier was already registered (same buttons, by construction).
        case alreadyRegistered(identifier: String)
        /// The category was written, but reading the set back within ``CategoryRegistrar/confirmationTimeout``
        /// did not show it: iOS may draw the notification without its buttons.
        case unconfirmed(identifier: String)
        /// Nothing was written, for the reason given.
        case failed(identifier: String, reason: String)

        /// The category identifier concerned.
        public var identifier: String {
            switch self {
            case .registered(let identifier, _), .alreadyRegistered(let identifier), .unconfirmed(let identifier),
                .failed(let identifier, _): identifier
            }
        }

        /// Whether the category is registered now.
        public var isRegistered: Bool {
            if case .failed = self { return false }
            return true
        }
    }

    /// The most Notibase-owned categories kept when older ones can be evicted.
    public let capacity: Int
    /// How long to wait for the system to answer a read.
    public let readTimeout: Duration
    /// Categories used more recently than this are never evicted: their notification may still be
    /// in an extension, not yet on screen. iOS gives an extension about 30 seconds.
    public let inFlightWindow: Duration

    /// How long a registration reads the set back, waiting for its write to be visible, before it
    /// lets the next one read (and the notification be shown).
    public let confirmationTimeout: Duration

    private let store: any CategoryStore
    private let ledger: any CategoryLedger
    private let serial: AsyncMutex
    private let crossProcessLock: (any CategoryLock)?
    private let now: @Sendable () -> Date

    /// A registrar over `store`. Registrars that share a store must share `serial` too; use
    /// ``shared(for:makeStore:)`` for the system's center.
    public init(
        store: any CategoryStore,
        ledger: any CategoryLedger = InMemoryCategoryLedger(),
        capacity: Int = 64,
        readTimeout: Duration = .seconds(5),
        inFlightWindow: Duration = .seconds(60),
        crossProcessLock: (any CategoryLock)? = nil,
        confirmationTimeout: Duration = .seconds(2),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.confirmationTimeout = confirmationTimeout
        self.store = store
        self.ledger = ledger
        self.capacity = max(capacity, 1)
        self.readTimeout = readTimeout
        self.inFlightWindow = inFlightWindow
        self.crossProcessLock = crossProcessLock
        self.now = now
        serial = AsyncMutex()
    }

    /// Registers the category for `buttons` (identifier per `notibase-category/1`).
    public func register(_ buttons: [Button]) async -> Outcome {
        let identifier = CategoryIdentifier.derive(from: buttons)
        return await serial.withLock { () async -> Outcome in
            do throws(CategoryStoreError) {
                if let crossProcessLock {
                    return try await crossProcessLock.withLock(timeout: readTimeout) { () async throws(CategoryStoreError) -> Outcome in
                        try await self.registerHoldingLock(identifier, buttons)
                    }
                }
                return try await registerHoldingLock(identifier, buttons)
            } catch {
                return .failed(identifier: identifier, reason: error.description)
            }
        }
    }

    private func registerHoldingLock(_ identifier: String, _ buttons: [Button]) async throws(CategoryStoreError) -> Outcome {
        let capacity = capacity
        let inFlightWindow = inFlightWindow
        let lastUsed = ledger.lastUsed()
        let now = now()
        var delivered = EvictionPlan.Delivered.notAsked
        // When the ledger says the set is full and the buttons are new, an eviction is likely:
        // ask what is shown first, saving a read of the categories.
        if lastUsed[identifier] == nil, lastUsed.count >= capacity {
            delivered = await deliveredCategories()
        }
        // At most two rounds: the second when eviction needs the delivered notifications.
        for _ in 0..<2 {
            let knownDelivered = delivered
            let decision = Locked<(plan: EvictionPlan.Decision, registered: Set<String>)?>(nil)
            let crossProcessLock = crossProcessLock
            let change = try await store.update(timeout: readTimeout) { registered in
                // Let go of at the deadline (see `abandonRunningRegistration`): write nothing.
                if crossProcessLock?.isAbandoned == true { return nil }
                let planned = EvictionPlan.decide(
                    registered: registered, adding: identifier, capacity: capacity, lastUsed: lastUsed, delivered: knownDelivered,
                    now: now, inFlightWindow: inFlightWindow)
                decision.withLock { $0 = (planned, registered) }
                if case .add(let remove) = planned { return CategoryChange(add: (identifier, buttons), remove: remove) }
                return nil
            }
            let decided = decision.withLock { $0 }
            if crossProcessLock?.isAbandoned == true {
                return .failed(identifier: identifier, reason: CategoryStoreError.abandoned.description)
            }
            switch decided?.plan {
            case .alreadyRegistered?:
                ledger.record(use: identifier, at: now, removing: [], registered: decided?.registered ?? [])
                return .alreadyRegistered(identifier: identifier)
            case .needDelivered?:
                delivered = await deliveredCategories()
            case .add?, nil:
                let removed = change?.remove ?? []
                var registered = decided?.registered ?? []
                registered.subtract(removed)
                registered.insert(identifier)
                ledger.record(use: identifier, at: now, removing: removed, registered: registered)
                // Still in the serial section: the next registration must read a set that has it.
                let visible = await ReadBack.poll(timeout: confirmationTimeout, giveUp: { crossProcessLock?.isAbandoned == true }) {
                    await registeredIdentifiers()?.contains(identifier) ?? false
                }
                return visible ? .registered(identifier: identifier, evicted: removed) : .unconfirmed(identifier: identifier)
            }
        }
        return .failed(identifier: identifier, reason: "the category set kept changing while registering")
    }

    /// Abandons the registration running now, if any: lets go of the lock shared with the app at
    /// once, and the registration writes nothing. Called before the content handler when a
    /// notification is finished early (its deadline, `serviceExtensionTimeWillExpire`): the process
    /// may be suspended right after, and must not be holding the lock then.
    public func abandonRunningRegistration() {
        crossProcessLock?.abandon()
    }

    /// The identifiers registered now, read without writing; nil when the read fails.
    private func registeredIdentifiers() async -> Set<String>? {
        let seen = Locked<Set<String>?>(nil)
        do {
            _ = try await store.update(timeout: readTimeout) { registered in
                seen.withLock { $0 = registered }
                return nil
            }
        } catch {
            return nil
        }
        return seen.withLock { $0 }
    }

    private func deliveredCategories() async -> EvictionPlan.Delivered {
        do {
            return .known(try await store.deliveredCategoryIdentifiers(timeout: readTimeout))
        } catch {
            return .unavailable
        }
    }

    // MARK: One registrar per center

    private static let registrars = Locked([ObjectIdentifier: CategoryRegistrar]())

    /// The registrar for the process's notification center: every extension instance in the process
    /// shares it, and so its serial section.
    static func shared(for center: UNUserNotificationCenter, make: () -> CategoryRegistrar) -> CategoryRegistrar {
        registrars.withLock { registrars in
            let key = ObjectIdentifier(center)
            if let existing = registrars[key] { return existing }
            let registrar = make()
            registrars[key] = registrar
            return registrar
        }
    }
}
