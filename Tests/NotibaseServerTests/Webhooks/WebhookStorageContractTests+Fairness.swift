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

/// The lease's order and shares (issue 43): a node's slots go round the apps, an app holds no more
/// than its share while other apps have endpoints due or in flight, and an endpoint just answered
/// goes behind those of its app that have waited longer. On both backends.
extension WebhookStorageContractTests {
    @Test func leasesTakeTurnsAcrossAppsAndNoAppHoldsMoreThanItsShare() async throws {
        let busy = try await app("busy")
        var busyEndpoints: [String] = []
        for number in 1...6 { busyEndpoints.append(try await endpoint(busy, "e\(number)").id) }
        let quiet = try await app("quiet")
        let quietEndpoint = try await endpoint(quiet).id
        let other = try await app("other")
        let otherEndpoint = try await endpoint(other).id
        for app in [busy, quiet, other] { try await register(app, 1...1) }
        try await feedAll()

        // Six slots among three apps with endpoints due: two each, first turns first.
        let first = try await store.leaseWebhookEndpoints(owner: "n1", now: 100, until: 10_000, limit: 3, slots: 6).map(\.id)
        #expect(Set(first) == [busyEndpoints[0], quietEndpoint, otherEndpoint])
        #expect(try await store.leaseWebhookEndpoints(owner: "n1", now: 150, until: 10_000, limit: 10, slots: 6).map(\.id) == [busyEndpoints[1]])
        // The busy app holds its share (two of six among three apps): its others wait, though
        // slots are free.
        #expect(try await store.leaseWebhookEndpoints(owner: "n1", now: 200, until: 10_000, limit: 10, slots: 6).isEmpty)
        // Another node's slots are its own.
        #expect(try await store.leaseWebhookEndpoints(owner: "n2", now: 200, until: 10_000, limit: 10, slots: 6).map(\.id).sorted() == Array(busyEndpoints[2...5]))
    }

    @Test func anAppAloneHasEverySlot() async throws {
        let busy = try await app("busy")
        for number in 1...5 { _ = try await endpoint(busy, "e\(number)") }
        try await register(busy, 1...1)
        try await feedAll()
        #expect(try await store.leaseWebhookEndpoints(owner: "n1", now: 100, until: 10_000, limit: 10, slots: 4).count == 4)
    }

    /// More apps than slots: each still has one in flight (its first turn), never none.
    @Test func everyAppHasATurnEvenWithMoreAppsThanSlots() async throws {
        var endpoints: [String] = []
        for name in ["a", "b", "c"] {
            let app = try await app(name)
            endpoints.append(try await endpoint(app).id)
            _ = try await endpoint(app, "e2")
            try await register(app, 1...1)
        }
        try await feedAll()
        let leased = try await store.leaseWebhookEndpoints(owner: "n1", now: 100, until: 10_000, limit: 10, slots: 2).map(\.id)
        #expect(Set(leased) == Set(endpoints))
    }

    /// An endpoint whose batch was just answered, with more to send, goes behind the one of its app
    /// that has waited since before: it used to go first again (`coalesce(next_attempt_at, 0)`).
    @Test func anEndpointJustAnsweredGoesBehindThoseThatWaitedLonger() async throws {
        let app = try await app("a")
        let first = try await endpoint(app, "e1")
        let second = try await endpoint(app, "e2")
        try await register(app, 1...1)
        try await feedAll()
        let leased = try #require(try await store.leaseWebhookEndpoints(owner: "n1", now: 100, until: 10_000, limit: 1, slots: 1).first)
        #expect(leased.id == first.id)
        var state = leased.dispatch
        state.cursor = try #require(try await stream(app, first.id).last?.seq)
        #expect(try await store.saveWebhookDispatch(endpointID: first.id, owner: "n1", revision: leased.revision, state, attempt: nil, release: true, now: 500))
        // More for both.
        try await register(app, 2...2, now: 600)
        try await feedAll()
        #expect(try await store.leaseWebhookEndpoints(owner: "n1", now: 700, until: 10_000, limit: 1, slots: 1).map(\.id) == [second.id])
        #expect(try await store.leaseWebhookEndpoints(owner: "n2", now: 700, until: 10_000, limit: 1, slots: 1).map(\.id) == [first.id])
    }
}
