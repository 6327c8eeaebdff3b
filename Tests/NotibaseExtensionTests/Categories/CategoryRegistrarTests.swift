import Foundation
import Testing
import NotibaseCore
@preconcurrency import UserNotificationsShim
@testable import NotibaseExtension
@testable import NotibaseExtensionTestSupport

@Suite("Registering categories")
struct CategoryRegistrarTests {
    func device(latency: SimulatedLatency = .immediate) -> SimulatedDevice {
        let device = SimulatedDevice(name: "registrar")
        device.center.setNotificationCategories(appCategories())
        device.readLatency = latency
        return device
    }

    func registrar(_ device: SimulatedDevice, capacity: Int = 64, readTimeout: Duration = .seconds(5), now: @escaping @Sendable () -> Date = Date.init)
        -> CategoryRegistrar
    {
        CategoryRegistrar(store: SystemCategoryStore(center: device.center), capacity: capacity, readTimeout: readTimeout, now: now)
    }

    /// The first bug: writing only the new category wipes every category the app registered.
    @Test func theAppsCategoriesSurvive() async {
        let naive = device()
        naive.center.setNotificationCategories([UNNotificationCategory.notibase(identifier: "nb_0000000000000001", buttons: [Button(id: "a", text: "A")])])
        #expect(await registeredIdentifiers(naive) == ["nb_0000000000000001"], "the naive write replaced the app's categories")

        let device = device()
        let outcome = await registrar(device).register([Button(id: "track", text: "Track")])
        #expect(outcome == .registered(identifier: "nb_40398f050d7a9fdd", evicted: []))
        #expect(await registeredIdentifiers(device) == ["INVITATION", "CHAT", "nb_40398f050d7a9fdd"])
        // The app's categories are the same objects, every property kept.
        let categories = await device.center.notificationCategories()
        let invitation = categories.first { $0.identifier == "INVITATION" }
        #expect(invitation?.hiddenPreviewsBodyPlaceholder == "Invitation")
        #expect(invitation?.options == [.customDismissAction])
    }

    @Test func registeredCategoryDrawsTheButtons() async throws {
        let device = device()
        let buttons = [
            Button(id: "reply", text: "Reply", options: [], icon: "system:arrowshape.turn.up.left", input: .init(button: "Send", placeholder: "Say…")),
            Button(id: "delete", text: "Delete", options: [.destructive, .authenticationRequired], icon: "template:bin"),
        ]
        _ = await registrar(device).register(buttons)
        let categories = await device.center.notificationCategories()
        let category = try #require(categories.first { $0.identifier == CategoryIdentifier.derive(from: buttons) })
        let reply = try #require(category.actions.first as? UNTextInputNotificationAction)
        #expect(reply.identifier == "reply" && reply.title == "Reply")
        #expect(reply.textInputButtonTitle == "Send" && reply.textInputPlaceholder == "Say…")
        #expect(reply.options == [])
        #expect(category.actions[1].options == [.destructive, .authenticationRequired])
        #expect(category.options.contains(.customDismissAction))
    }

    @Test func registeringTwiceWritesOnce() async {
        let device = device()
        let registrar = registrar(device)
        let buttons = [Button(id: "a", text: "A")]
        _ = await registrar.register(buttons)
        #expect(await registrar.register(buttons) == .alreadyRegistered(identifier: CategoryIdentifier.derive(from: buttons)))
    }

    /// The third bug: concurrent read-merge-writes lose categories unless serialised.
    @Test func concurrentRegistrationsLoseNothing() async {
        let device = device(latency: .random(in: .zero ... .milliseconds(3), seed: 7))
        let registrar = registrar(device, capacity: 1000)
        let sets = distinctButtonSets(200)
        await withTaskGroup(of: Void.self) { group in
            for buttons in sets { group.addTask { _ = await registrar.register(buttons) } }
        }
        let expected = Set(sets.map(CategoryIdentifier.derive(from:))).union(["INVITATION", "CHAT"])
        #expect(await registeredIdentifiers(device) == expected)
    }

    /// If the system never answers the read, nothing is written, not even later.
    @Test func aReadThatDoesNotAnswerWritesNothing() async {
        let hung = device(latency: .never)
        let outcome = await registrar(hung, readTimeout: .milliseconds(100)).register([Button(id: "a", text: "A")])
        guard case .failed(_, let reason) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(reason.contains("nothing was written"))
        #expect(await registeredIdentifiers(hung) == ["INVITATION", "CHAT"])

        let slow = device(latency: .fixed(.milliseconds(300)))
        let late = await registrar(slow, readTimeout: .milliseconds(50)).register([Button(id: "b", text: "B")])
        #expect(!late.isRegistered)
        try? await Task.sleep(for: .milliseconds(600))
        #expect(await registeredIdentifiers(slow) == ["INVITATION", "CHAT"], "the late answer must not write")
    }

    /// Past capacity, the least recently used category that no notification shows goes; shown
    /// ones and the app's stay.
    @Test func evictsTheLeastRecentlyUsedThatNothingShows() async {
        let device = device()
        let clock = Locked(Date(timeIntervalSince1970: 1_000))
        let registrar = registrar(device, capacity: 3) {
            clock.withLock { date in
                date += 60
                return date
            }
        }
        let sets = distinctButtonSets(4)
        let ids = sets.map(CategoryIdentifier.derive(from:))
        for buttons in sets.prefix(3) { _ = await registrar.register(buttons) }
        // The oldest (ids[0]) is still on screen; ids[1] is the least recently used of the rest.
        await device.deliver(payload: ["aps": ["alert": "shown", "category": ids[0]]], to: nil)
        let outcome = await registrar.register(sets[3])
        #expect(outcome == .registered(identifier: ids[3], evicted: [ids[1]]))
        #expect(await registeredIdentifiers(device) == ["INVITATION", "CHAT", ids[0], ids[2], ids[3]])
    }
}

@Suite("Eviction decisions")
struct EvictionPlanTests {
    let owned = (1...4).map { String(format: "nb_%016x", $0) }

    func uses(_ order: [String]) -> [String: Date] {
        Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, Date(timeIntervalSince1970: Double($0))) })
    }

    @Test func underCapacityAdds() {
        #expect(EvictionPlan.decide(registered: ["APP"], adding: owned[0], capacity: 2, lastUsed: [:], delivered: .notAsked) == .add(remove: []))
        #expect(EvictionPlan.decide(registered: [owned[0]], adding: owned[0], capacity: 1, lastUsed: [:], delivered: .notAsked) == .alreadyRegistered)
    }

    @Test func overCapacityAsksWhatIsShown() {
        let registered = Set(owned.prefix(3)).union(["APP"])
        #expect(EvictionPlan.decide(registered: registered, adding: owned[3], capacity: 3, lastUsed: [:], delivered: .notAsked) == .needDelivered)
    }

    @Test func evictsOldestNotShownNeverTheApps() {
        let registered = Set(owned.prefix(3)).union(["APP", "nb_not_derived_shape"])
        let decision = EvictionPlan.decide(
            registered: registered, adding: owned[3], capacity: 2, lastUsed: uses([owned[1], owned[0], owned[2]]),
            delivered: .known([owned[1]]))
        #expect(decision == .add(remove: [owned[0], owned[2]]))
    }

    /// A category registered a moment ago may belong to a notification not on screen yet.
    @Test func recentlyUsedCategoriesAreNotEvicted() {
        let registered = Set(owned.prefix(3))
        let now = Date(timeIntervalSince1970: 10_000)
        let lastUsed = [owned[0]: now.addingTimeInterval(-3600), owned[1]: now.addingTimeInterval(-30), owned[2]: now.addingTimeInterval(-5)]
        let decision = EvictionPlan.decide(
            registered: registered, adding: owned[3], capacity: 1, lastUsed: lastUsed, delivered: .known([]), now: now)
        #expect(decision == .add(remove: [owned[0]]))
    }

    /// From a capacity of 8, an eviction makes room for the next few (an eighth of the capacity),
    /// so that most deliveries into a full set skip asking what is on screen.
    @Test func anEvictionMakesRoomForTheNextFew() {
        let many = (1...17).map { String(format: "nb_%016x", $0) }
        let registered = Set(many.prefix(16))
        let decision = EvictionPlan.decide(
            registered: registered, adding: many[16], capacity: 16, lastUsed: uses(many), delivered: .known([many[0]]))
        #expect(decision == .add(remove: [many[1], many[2], many[3]]), "the overflow and two more, oldest first, none on screen")
        #expect(EvictionPlan.decide(registered: registered, adding: many[16], capacity: 17, lastUsed: [:], delivered: .notAsked) == .add(remove: []))
    }

    @Test func everythingShownEvictsNothing() {
        let registered = Set(owned.prefix(3))
        #expect(EvictionPlan.decide(registered: registered, adding: owned[3], capacity: 3, lastUsed: [:], delivered: .known(registered)) == .add(remove: []))
        #expect(EvictionPlan.decide(registered: registered, adding: owned[3], capacity: 3, lastUsed: [:], delivered: .unavailable) == .add(remove: []))
    }
}
