import Foundation
import Synchronization
import NotibaseTestSupport
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

/// Nodes sharing a PostgreSQL database each cache the keys and apps they resolved. Before this, a
/// key rotated through one node kept working on every other node for as long as its cache held
/// it: a leaked key, rotated away, still sent pushes.
@Suite("Nodes forget what another node changed", .enabled(if: TestDatabase.isPostgres))
struct NodesForgetTests {
    @Test func aKeyRotatedOnOneNodeStopsWorkingOnTheOthers() async throws {
        let opened = try await TestDatabase.open(directory: NSTemporaryDirectory(), busyTimeout: 5_000)
        defer { opened.finish() }
        let first = opened.store
        let second = try await PostgresStore(url: try #require(opened.url), poolSize: 2)
        let auth = Authenticator(store: second, adminKeyHash: [])
        // A node forgets everything when it starts hearing: wait for that before caching.
        let started = Atomic(false)
        #expect(second.listen { work in
            auth.hear(work)
            if work == .apps { started.store(true, ordering: .relaxed) }
        })
        try await waitUntil { started.load(ordering: .relaxed) }
        defer { Task { try? await second.close() } }

        let old = try APIKey.generate(.server)
        _ = try await first.createApp(
            id: "app", name: "Before", serverKeyHash: try APIKey.hash(old), clientKeyHash: try APIKey.hash(try APIKey.generate(.client)),
            requireIdentityVerification: false, now: 0)
        let request = "Bearer \(old)"
        // The second node resolves the key and the app, and caches both.
        #expect(try await auth.authenticate(authorization: request, allowed: [.server]).appID == "app")
        #expect(try auth.cachedCaller(authorization: request, allowed: [.server]) != nil)
        #expect(try await auth.app("app") { try await second.app("app") }?.name == "Before")

        _ = try await first.updateApp("app", name: "After", requireIdentityVerification: nil, pacing: nil)
        try await waitUntil { (try? auth.cachedCaller(authorization: request, allowed: [.server])) == nil }
        #expect(try await auth.app("app") { try await second.app("app") }?.name == "After")

        #expect(try await auth.authenticate(authorization: request, allowed: [.server]).appID == "app")
        #expect(try await first.replaceKey(appID: "app", kind: .server, hash: try APIKey.hash(try APIKey.generate(.server))))
        try await waitUntil { (try? auth.cachedCaller(authorization: request, allowed: [.server])) == nil }
        await #expect(throws: Refusal.self) { try await auth.authenticate(authorization: request, allowed: [.server]) }
    }
}
