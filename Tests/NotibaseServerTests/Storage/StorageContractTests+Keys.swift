import Testing
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseServerTestSupport

/// What every backend answers when a request's key is looked up (``KeyDirectory``), written once
/// for both (`Apps+SQL.swift`): the app and the kind of key, with the app's identity rule.
extension StorageContractTests {
    @Test func aKeyNamesItsAppAndItsKind() async throws {
        let app = try await app()
        _ = try await store.createApp(
            id: "strict", name: "strict", serverKeyHash: Array("s-strict".utf8), clientKeyHash: Array("c-strict".utf8),
            requireIdentityVerification: true, now: 1)
        #expect(try await store.keyOwner(hash: Array("s-app".utf8)) == KeyOwner(appID: app, kind: .server))
        #expect(try await store.keyOwner(hash: Array("c-app".utf8)) == KeyOwner(appID: app, kind: .client))
        #expect(try await store.keyOwner(hash: Array("c-strict".utf8)) == KeyOwner(appID: "strict", kind: .client, requiresIdentityVerification: true))
        #expect(try await store.keyOwner(hash: Array("s-strict".utf8)) == KeyOwner(appID: "strict", kind: .server, requiresIdentityVerification: true))
        #expect(try await store.keyOwner(hash: Array("s-nobody".utf8)) == nil)
    }

    /// A replaced key stops working at once; a deleted app's keys with it.
    @Test func aReplacedOrDeletedKeyNamesNobody() async throws {
        let app = try await app()
        #expect(try await store.replaceKey(appID: app, kind: .client, hash: Array("c-new".utf8)))
        #expect(try await store.keyOwner(hash: Array("c-app".utf8)) == nil)
        #expect(try await store.keyOwner(hash: Array("c-new".utf8)) == KeyOwner(appID: app, kind: .client))
        #expect(try await store.deleteApp(app))
        #expect(try await !store.deleteApp(app))
        #expect(try await store.keyOwner(hash: Array("s-app".utf8)) == nil)
        #expect(try await store.keyOwner(hash: Array("c-new".utf8)) == nil)
    }
}
