import NotibaseCore
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
@testable import NotibaseServerTestSupport

/// How a group of registrations is written in one transaction (``RegistrationPlan``), decided
/// without a database: what may go in one statement, what must go alone, in the group's order.
@Suite("Registration plan")
struct RegistrationPlanTests {
    static func registration(_ token: String, app: String = "app", platform: Platform = .ios, replacing previous: String? = nil) -> GroupedRegistration {
        GroupedRegistration(appID: app, upsert: DeviceUpsert(platform: platform, token: token, previousToken: previous), newID: "id-" + token, now: 1)
    }

    @Test func differentDevicesGoTogether() {
        let group = ["a", "b", "c"].map { Self.registration($0) }
        #expect(RegistrationPlan(group).steps == [.together(0..<3)])
        #expect(RegistrationPlan(group).isOneStatement)
    }

    @Test func oneRegistrationGoesAlone() {
        #expect(RegistrationPlan([Self.registration("a")]).steps == [.alone(0)])
        #expect(!RegistrationPlan([Self.registration("a")]).isOneStatement)
    }

    /// A device named twice: the second registration must find what the first wrote, so it
    /// starts the next step.
    @Test func aDeviceNamedAgainStartsTheNextStep() {
        let group = ["a", "b", "a", "c", "a"].map { Self.registration($0) }
        #expect(RegistrationPlan(group).steps == [.together(0..<2), .together(2..<4), .alone(4)])
        #expect(!RegistrationPlan(group).isOneStatement)
    }

    /// The same token of another app or platform is another device.
    @Test func theSameTokenOfAnotherAppOrPlatformIsAnotherDevice() {
        let group = [Self.registration("a"), Self.registration("a", app: "other"), Self.registration("a", platform: .android)]
        #expect(RegistrationPlan(group).steps == [.together(0..<3)])
    }

    /// A registration that replaces a token deactivates another device: alone, between the steps
    /// before and after it, so each side sees the other as committed in order.
    @Test func aReplacedTokenGoesAloneInItsPlace() {
        let group = [Self.registration("a"), Self.registration("b"), Self.registration("c", replacing: "a"), Self.registration("a"), Self.registration("d")]
        #expect(RegistrationPlan(group).steps == [.together(0..<2), .alone(2), .together(3..<5)])
    }

    /// Every group of up to five registrations of two devices, replacing a token or not: each
    /// registration is written once, in the group's order (the store answers in that order), and
    /// a step that goes together names each device once and replaces no token.
    @Test func theStepsCoverEveryGroupInOrder() {
        let kinds = [Self.registration("a"), Self.registration("b"), Self.registration("a", replacing: "z"), Self.registration("b", replacing: "a")]
        var groups: [[GroupedRegistration]] = [[]]
        for _ in 1...5 { groups += groups.filter { $0.count == groups.last!.count }.flatMap { group in kinds.map { group + [$0] } } }
        #expect(groups.count == 1 + 4 + 16 + 64 + 256 + 1024)
        for group in groups {
            let plan = RegistrationPlan(group)
            #expect(plan.steps.flatMap(\.indices) == Array(group.indices))
            for case .together(let range) in plan.steps {
                #expect(range.count > 1)
                #expect(Set(group[range].map(\.device)).count == range.count)
                #expect(group[range].allSatisfy { $0.upsert.previousToken == nil })
            }
        }
    }

    /// An unavailable database is every registration's answer at once; anything else is found
    /// out one registration at a time.
    @Test func onlyAnUnavailableDatabaseFailsEveryRegistration() {
        #expect(RegistrationPlan.failsEveryRegistration(StorageError(.unavailable, "connection refused")))
        #expect(!RegistrationPlan.failsEveryRegistration(StorageError(.conflict, "unique")))
        #expect(!RegistrationPlan.failsEveryRegistration(DeviceUpsert.claimedByAnotherUser))
    }
}
