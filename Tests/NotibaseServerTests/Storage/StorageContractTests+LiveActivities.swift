import Foundation
import NotibaseCore
import NotibaseSenders
import Testing
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseServerTestSupport

/// What every backend guarantees for the Live Activity registry (``LiveActivitiesStore``): one
/// push-to-start token per device and type, one update token per activity and device, both
/// replaced on rotation; an ended or dismissed activity never active again; rows gone with their
/// device and app.
extension StorageContractTests {
    /// The app's devices d1 (iOS, token 1, sandbox) and d2 (Android); their numbers.
    private func liveDevices(_ app: String) async throws -> (ios: Int, android: Int) {
        var ios = DeviceUpsert(platform: .ios, token: String(format: "%064x", 1))
        ios.apnsEnvironment = .sandbox
        _ = try await store.registerDevices(appID: app, [(ios, newID: "\(app)-d1"), (DeviceUpsert(platform: .android, token: "fcm-token-000000000002"), newID: "\(app)-d2")], now: 10)
        let first = try #require(try await store.device(appID: app, id: "\(app)-d1"))
        let second = try #require(try await store.device(appID: app, id: "\(app)-d2"))
        return (first.seq, second.seq)
    }

    @Test func aDeviceIsFoundByItsPushTokenAmongTheAppsActiveDevices() async throws {
        let app = try await app()
        let other = try await self.app("other")
        _ = try await liveDevices(app)
        #expect(try await store.activeDevice(appID: app, pushToken: String(format: "%064X", 1))?.id == "app-d1")
        #expect(try await store.activeDevice(appID: app, pushToken: "fcm-token-000000000002")?.id == "app-d2")
        #expect(try await store.activeDevice(appID: app, pushToken: "FCM-TOKEN-000000000002") == nil)
        #expect(try await store.activeDevice(appID: other, pushToken: String(format: "%064x", 1)) == nil)
        // A replaced (deactivated) token is no longer the device's.
        _ = try await store.registerDevices(
            appID: app, [(DeviceUpsert(platform: .ios, token: String(format: "%064x", 3), previousToken: String(format: "%064x", 1)), newID: "app-d3")], now: 20)
        #expect(try await store.activeDevice(appID: app, pushToken: String(format: "%064x", 1)) == nil)
    }

    @Test func pushToStartTokensAreOnePerDeviceAndTypeAndRotationReplacesThem() async throws {
        let app = try await app()
        let (ios, _) = try await liveDevices(app)
        #expect(try await store.savePushToStartToken(appID: app, deviceSeq: ios, attributesType: "Delivery", token: "aa", contentStateSchema: nil, now: 30))
        #expect(try await store.savePushToStartToken(appID: app, deviceSeq: ios, attributesType: "Score", token: "bb", contentStateSchema: "{}", now: 31))
        #expect(try await store.savePushToStartToken(appID: app, deviceSeq: ios, attributesType: "Delivery", token: "cc", contentStateSchema: #"{"fields":[]}"#, now: 32))
        let tokens = try await store.pushToStartTokens(appID: app, deviceSeq: ios)
        #expect(tokens == [
            PushToStartTokenRecord(attributesType: "Delivery", token: "cc", apnsEnvironment: .sandbox, contentStateSchema: #"{"fields":[]}"#, updatedAt: 32),
            PushToStartTokenRecord(attributesType: "Score", token: "bb", apnsEnvironment: .sandbox, contentStateSchema: "{}", updatedAt: 31),
        ])
        // Another app's device is not this app's: nothing written, nothing read.
        let other = try await self.app("other")
        #expect(try await !store.savePushToStartToken(appID: other, deviceSeq: ios, attributesType: "Delivery", token: "dd", contentStateSchema: nil, now: 33))
        #expect(try await store.pushToStartTokens(appID: other, deviceSeq: ios).isEmpty)
        #expect(try await store.rowCount("live_activity_start_tokens") == 2)
    }

    @Test func anActivitysTokenIsReplacedWhileActiveAndDeadOnceItEnds() async throws {
        let app = try await app()
        let (ios, android) = try await liveDevices(app)
        #expect(try await store.saveLiveActivityToken(appID: app, activityID: "order-1", deviceSeq: ios, attributesType: "Delivery", token: "aa", now: 30) == .active)
        #expect(try await store.saveLiveActivityToken(appID: app, activityID: "order-1", deviceSeq: ios, attributesType: "Delivery", token: "bb", now: 31) == .active)
        #expect(try await store.endLiveActivity(appID: app, activityID: "order-1", deviceSeq: android, state: .ended, now: 32) == .ended)
        var devices = try await store.liveActivityDevices(appID: app, activityID: "order-1", page: .after(0, limit: 10))
        #expect(devices.map(\.deviceID) == ["app-d1", "app-d2"])
        #expect(devices[0].updateToken == "bb" && devices[0].state == .active && devices[0].updatedAt == 31 && devices[0].platform == .ios)
        #expect(devices[1].updateToken == nil && devices[1].state == .ended && devices[1].attributesType == nil)

        // Ended: the token is forgotten, and a late token does not bring it back.
        #expect(try await store.endLiveActivity(appID: app, activityID: "order-1", deviceSeq: ios, state: .ended, now: 40) == .ended)
        #expect(try await store.saveLiveActivityToken(appID: app, activityID: "order-1", deviceSeq: ios, attributesType: "Delivery", token: "cc", now: 41) == .ended)
        #expect(try await store.liveActivityDevices(appID: app, activityID: "order-1", page: .after(0, limit: 1)).first?.updateToken == nil)
        #expect(try await store.endLiveActivity(appID: app, activityID: "order-1", deviceSeq: ios, state: .dismissed, now: 42) == .dismissed)
        // Dismissed stays dismissed.
        #expect(try await store.endLiveActivity(appID: app, activityID: "order-1", deviceSeq: ios, state: .ended, now: 43) == .dismissed)
        devices = try await store.liveActivityDevices(appID: app, activityID: "order-1", page: .before(Int.max, limit: 1))
        #expect(devices.map(\.deviceID) == ["app-d2"])
        let first = try #require(try await store.liveActivityDevices(appID: app, activityID: "order-1", page: .after(0, limit: 1)).first)
        #expect(first.state == .dismissed && first.updateToken == nil && first.attributesType == "Delivery")
        #expect(try await store.liveActivityDeviceCount(appID: app, activityID: "order-1") == 2)
        #expect(try await store.liveActivityDeviceCount(appID: app, activityID: "order-2") == 0)
        // Another app sees none of it, and cannot write to this app's device.
        let other = try await self.app("other")
        #expect(try await store.liveActivityDevices(appID: other, activityID: "order-1", page: .after(0, limit: 10)).isEmpty)
        #expect(try await store.saveLiveActivityToken(appID: other, activityID: "order-1", deviceSeq: ios, attributesType: "Delivery", token: "dd", now: 44) == nil)
    }

    @Test func theRegistryGoesWithItsDeviceItsUserAndItsApp() async throws {
        let app = try await app()
        let (ios, android) = try await liveDevices(app)
        _ = try await store.registerDevices(appID: app, [(DeviceUpsert(platform: .ios, token: String(format: "%064x", 5), externalUserID: "alice"), newID: "app-d5")], now: 10)
        let alices = try #require(try await store.device(appID: app, id: "app-d5")).seq
        for seq in [ios, android, alices] {
            _ = try await store.savePushToStartToken(appID: app, deviceSeq: seq, attributesType: "Delivery", token: "aa", contentStateSchema: nil, now: 30)
            _ = try await store.saveLiveActivityToken(appID: app, activityID: "order-1", deviceSeq: seq, attributesType: "Delivery", token: "aa", now: 30)
        }
        #expect(try await store.deleteDevice(appID: app, id: "app-d1", now: 40))
        #expect(try await store.pushToStartTokens(appID: app, deviceSeq: ios).isEmpty)
        #expect(try await store.liveActivityDeviceCount(appID: app, activityID: "order-1") == 2)

        _ = try await store.deleteUser(appID: app, externalUserID: "alice", now: 50)
        #expect(try await store.pushToStartTokens(appID: app, deviceSeq: alices).isEmpty)
        #expect(try await store.liveActivityDevices(appID: app, activityID: "order-1", page: .after(0, limit: 10)).map(\.deviceID) == ["app-d2"])

        #expect(try await store.deleteApp(app))
        #expect(try await store.rowCount("live_activity_tokens") == 0)
        #expect(try await store.rowCount("live_activity_start_tokens") == 0)
    }
}
