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

/// Who gets a reader (``LaneTurns``, which ``ConnectionLanes`` runs): one app's expensive reads
/// never hold every connection, so another app's read finds one free instead of waiting behind
/// them (issue 27).
@Suite struct LaneTurnsTests {
    @Test func oneAppHoldsEveryLaneButOneAndAnotherAppTakesTheLast() throws {
        var turns = LaneTurns<Int, String>(lanes: [1, 2, 3])
        let firstLane = turns.borrow(key: "tenant", waiter: "count 1")
        let first = try #require(firstLane)
        #expect(turns.borrow(key: "tenant", waiter: "count 2") != nil)
        #expect(turns.borrow(key: "tenant", waiter: "count 3") == nil, "the tenant took the last reader")
        let bystandersLane = turns.borrow(key: "bystander", waiter: "GET message")
        let bystanders = try #require(bystandersLane, "the bystander waited behind the tenant")
        #expect(turns.giveBack(bystanders, key: "bystander") == nil, "the tenant's third read took the lane the bystander left")
        let nextLane = turns.giveBack(first, key: "tenant")
        let next = try #require(nextLane)
        #expect(next.waiter == "count 3" && next.lane == first)
        #expect(turns.waitingCount == 0)
    }

    @Test func aLaneGivenBackGoesToTheOldestWaiterAllowedOne() throws {
        var turns = LaneTurns<Int, String>(lanes: [1, 2, 3])
        let tenantsLane = turns.borrow(key: "tenant", waiter: "count 1")
        let tenants = try #require(tenantsLane)
        #expect(turns.borrow(key: "tenant", waiter: "count 2") != nil)
        let loopsLane = turns.borrow(key: nil, waiter: "worker's read")
        let loops = try #require(loopsLane)
        #expect(turns.borrow(key: "tenant", waiter: "count 3") == nil)
        #expect(turns.borrow(key: "bystander", waiter: "list") == nil, "every lane is held")
        #expect(turns.giveBack(loops, key: nil)?.waiter == "list", "the tenant's older read went before the bystander's")
        #expect(turns.giveBack(tenants, key: "tenant")?.waiter == "count 3")
    }

    /// The node's own reads (a worker reading the messages it sends) name no app and may take
    /// every lane: PostgreSQL's pool, whose callers name none, works as before.
    @Test func callersNamingNoAppTakeEveryLaneInArrivalOrder() throws {
        var turns = LaneTurns<Int, String>(lanes: [1, 2])
        let firstLane = turns.borrow(key: nil, waiter: "a")
        let first = try #require(firstLane)
        #expect(turns.borrow(key: nil, waiter: "b") != nil)
        #expect(turns.borrow(key: nil, waiter: "c") == nil)
        #expect(turns.borrow(key: nil, waiter: "d") == nil)
        #expect(turns.giveBack(first, key: nil)?.waiter == "c")
    }

    /// With one lane there is no other to keep: an app may take it.
    @Test func aSingleLaneIsAnyonesInArrivalOrder() throws {
        var turns = LaneTurns<Int, String>(lanes: [1])
        let laneLane = turns.borrow(key: "tenant", waiter: "a")
        let lane = try #require(laneLane)
        #expect(turns.borrow(key: "tenant", waiter: "b") == nil)
        #expect(turns.borrow(key: "bystander", waiter: "c") == nil)
        #expect(turns.giveBack(lane, key: "tenant")?.waiter == "b")
    }
}
