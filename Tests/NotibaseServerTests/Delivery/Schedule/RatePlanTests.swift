import Foundation
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

@Suite("Rate plan (pure)")
struct RatePlanTests {
    let t0 = 1_800_000_000_000

    @Test func deliveriesOfOneMomentAreEvenlySpaced() {
        var plan = RatePlan(perMinute: 600, moment: t0, notBefore: t0)
        let slots = (0..<1_200).map { _ in plan.place(t0) }
        #expect(slots.first == t0)
        #expect(zip(slots, slots.dropFirst()).allSatisfy { $1 - $0 == 100 })
        // 600 a minute: the 601st starts the second minute.
        #expect(slots[600] == t0 + 60_000)
        #expect(maxInAnyMinute(slots) == 600)
    }

    @Test func aRateThatDoesNotDivideAMinuteHoldsWithoutDrift() {
        var plan = RatePlan(perMinute: 7, moment: t0, notBefore: t0)
        let slots = (0..<700).map { _ in plan.place(t0) }
        #expect(slots[699] == t0 + 699 * 60_000 / 7)
        #expect(maxInAnyMinute(slots) == 7)
    }

    @Test func aLateStartBeginsWhenFanOutDoes() {
        var plan = RatePlan(perMinute: 60, moment: t0, notBefore: t0 + 5_000)
        #expect(plan.place(t0) == t0 + 5_000)
        #expect(plan.place(t0) == t0 + 6_000)
    }

    @Test func theProgressIsAValueThatResumes() throws {
        // A batch stores the plan with its cursor; the next batch (another node, or after a
        // restart) goes on from it exactly.
        var plan = RatePlan(perMinute: 1_000, moment: t0, notBefore: t0)
        let first = (0..<500).map { _ in plan.place(t0) }
        var resumed = try JSONDecoder().decode(RatePlan.self, from: JSONEncoder().encode(plan))
        var straight = plan
        let rest = (0..<500).map { _ in resumed.place(t0) }
        #expect(rest == (0..<500).map { _ in straight.place(t0) })
        #expect(Set(first + rest).count == 1_000)
        #expect(rest.first == t0 + 30_000)
    }

    @Test func lanesOfSeveralMomentsFollowEachOtherWithinTheRate() {
        // 90 devices at 09:00 in Paris (08:00Z), 30 at 09:00 in London (09:00Z), 60 a minute: Paris
        // takes 90 s, London starts on time; with 120 in Paris, London waits for them.
        let paris = t0, london = t0 + 3_600_000
        var plan = RatePlan(perMinute: 60, expected: [paris: 90, london: 30], notBefore: t0)
        let a = (0..<90).map { _ in plan.place(paris) }, b = (0..<30).map { _ in plan.place(london) }
        #expect(a.last == paris + 89_000 && b.first == london)
        var crowded = RatePlan(perMinute: 60, expected: [paris: 4_000, london: 30], notBefore: t0)
        let c = (0..<4_000).map { _ in crowded.place(paris) }
        let d = (0..<30).map { _ in crowded.place(london) }
        #expect(d.first == paris + 4_000_000)
        #expect(maxInAnyMinute(c + d) == 60)
    }

    @Test func deliveriesBeyondTheCountGoAfterTheLastLane() {
        let paris = t0, london = t0 + 60_000
        var plan = RatePlan(perMinute: 60, expected: [paris: 2, london: 2], notBefore: t0)
        var slots = [plan.place(paris), plan.place(paris), plan.place(london)]
        slots.append(plan.place(paris))  // a third in Paris: not counted
        slots.append(plan.place(t0 + 30_000))  // a moment without a lane
        slots.append(plan.place(london))
        #expect(slots == [paris, paris + 1_000, london, london + 2_000, london + 3_000, london + 1_000])
        #expect(maxInAnyMinute(slots) <= 60)
        #expect(Set(slots).count == slots.count)
    }
}

/// The most slots within any minute-long window.
func maxInAnyMinute(_ slots: [Int]) -> Int {
    let sorted = slots.sorted()
    var most = 0, low = 0
    for high in sorted.indices {
        while sorted[high] - sorted[low] >= 60_000 { low += 1 }
        most = max(most, high - low + 1)
    }
    return most
}
