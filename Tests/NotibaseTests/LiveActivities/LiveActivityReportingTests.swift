import ActivityKitShim
import Foundation
import NotibaseCore
import NotibaseExtension
import NotibaseTestSupport
import Testing
import UserNotificationsShim
@testable import Notibase

/// A delivery app's Live Activity, as the guide has the app declare it.
struct DeliveryAttributes: NotibaseActivityAttributes {
    struct ContentState: Codable, Hashable {
        var status: String
        var minutesLeft: Int
    }

    var notibaseActivityID: String
    var orderNumber: String
}

/// Issue 46: the SDK reports push-to-start tokens, update tokens under the Notibase activity ID,
/// their rotations, ends and dismissals, against the ActivityKit stand-in.
@Suite("Live Activities (iOS SDK)")
struct LiveActivityReportingTests {
    static let deviceToken = Data(repeating: 0x5a, count: 32)
    static let deviceHex = String(repeating: "5a", count: 32)

    /// The app at launch: configured, registered, observing `DeliveryAttributes` on `phone`.
    private func launchApp(on phone: SimulatedActivityDevice, server: ReportServer, files: TemporaryDirectory, register: Bool = true) -> NotibaseClient {
        var configuration = NotibaseConfiguration(
            serverURL: server.url, clientKey: "nb_client_test", sharedDirectory: files.url, stateDirectory: files.url.appendingPathComponent("app"))
        configuration.initialRetryDelay = .milliseconds(20)
        configuration.maximumRetryDelay = .milliseconds(100)
        configuration.pushEnvironment = nil
        let client = NotibaseClient(configuration: configuration, center: SimulatedDevice(name: phone.name).center)
        if register { client.registerDeviceToken(Self.deviceToken) }
        SimulatedActivityDevice.$bound.withValue(phone) {
            client.liveActivities.observe(DeliveryAttributes.self)
        }
        return client
    }

    private func startPush(activityID: String, timestamp: Int = 1000) -> Data {
        let aps: [String: Any] = [
            "event": "start", "timestamp": timestamp, "attributes-type": "DeliveryAttributes", "input-push-token": 1,
            "attributes": ["notibaseActivityID": activityID, "orderNumber": "A-17"],
            "content-state": ["status": "cooking", "minutesLeft": 20],
        ]
        return try! JSONSerialization.data(withJSONObject: ["aps": aps])
    }

    private func endPush(timestamp: Int, dismissalDate: Int) -> Data {
        let aps: [String: Any] = [
            "event": "end", "timestamp": timestamp, "dismissal-date": dismissalDate, "content-state": ["status": "delivered", "minutesLeft": 0],
        ]
        return try! JSONSerialization.data(withJSONObject: ["aps": aps])
    }

    private func reports(_ server: ReportServer, _ kind: LiveActivityReport.Kind) -> [LiveActivityReport] {
        server.reports.filter { $0.kind == kind }
    }

    @Test func aPushStartedActivityIsReportedFromTokenToDismissal() async throws {
        let server = try ReportServer()
        let files = TemporaryDirectory("live-activities")
        let phone = SimulatedActivityDevice(name: "iPhone 17.5", iOSVersion: .init(17, 5), now: Date(timeIntervalSince1970: 1_000_000))
        let client = launchApp(on: phone, server: server, files: files)

        // The push-to-start token, with the content state's schema, under the registered device.
        try await waitUntil { !reports(server, .pushToStartToken).isEmpty }
        let startReport = try #require(reports(server, .pushToStartToken).first)
        let startToken = try #require(phone.pushToStartToken(forAttributesType: "DeliveryAttributes"))
        #expect(startReport == LiveActivityReport(
            deviceToken: Self.deviceHex, kind: .pushToStartToken, attributesType: "DeliveryAttributes", token: hex(startToken),
            contentStateSchema: ContentStateSchema(fields: [.init(key: "status", type: .string), .init(key: "minutesLeft", type: .integer)])))

        // The backend starts one by push (iOS wakes the app in the background): its update token is
        // reported under the Notibase ID from the attributes.
        guard case .started(let id) = phone.deliver(startPush(activityID: "order-17"), to: startToken) else {
            Issue.record("not started: \(phone.outcomes)")
            return
        }
        try await waitUntil { !reports(server, .updateToken).isEmpty }
        let firstToken = try #require(phone.updateToken(ofActivity: id))
        #expect(reports(server, .updateToken) == [
            LiveActivityReport(deviceToken: Self.deviceHex, kind: .updateToken, attributesType: "DeliveryAttributes", activityId: "order-17", token: hex(firstToken))
        ])

        // Both tokens rotate: the new ones are reported.
        phone.rotateUpdateToken(ofActivity: id)
        phone.rotatePushToStartToken(forAttributesType: "DeliveryAttributes")
        try await waitUntil { reports(server, .updateToken).count == 2 && reports(server, .pushToStartToken).count == 2 }
        #expect(reports(server, .updateToken).last?.token == phone.updateToken(ofActivity: id).map(hex))
        #expect(reports(server, .pushToStartToken).last?.token == phone.pushToStartToken(forAttributesType: "DeliveryAttributes").map(hex))

        // The end, then the dismissal at its dismissal date.
        let lastToken = try #require(phone.updateToken(ofActivity: id))
        #expect(phone.deliver(endPush(timestamp: 2000, dismissalDate: 1_000_060), to: lastToken) == .ended(activityID: id))
        try await waitUntil { !reports(server, .ended).isEmpty }
        phone.advance(by: .seconds(60))
        try await waitUntil { !reports(server, .dismissed).isEmpty }
        #expect(reports(server, .ended) == [LiveActivityReport(deviceToken: Self.deviceHex, kind: .ended, activityId: "order-17")])
        #expect(reports(server, .dismissed) == [LiveActivityReport(deviceToken: Self.deviceHex, kind: .dismissed, activityId: "order-17")])
        #expect(await client.flushNow())
        await server.stop()
    }

    /// An activity started while the app was not running is reported at the next launch, and the
    /// person dismissing it is reported as a dismissal.
    @Test func anActivityRunningAtLaunchIsReportedAndItsDismissalToo() async throws {
        let server = try ReportServer()
        let files = TemporaryDirectory("live-activities")
        let phone = SimulatedActivityDevice(iOSVersion: .init(17, 5))
        let content = ActivityContent(state: DeliveryAttributes.ContentState(status: "cooking", minutesLeft: 20), staleDate: nil)
        let activity = try SimulatedActivityDevice.$bound.withValue(phone) {
            try Activity.request(attributes: DeliveryAttributes(notibaseActivityID: "order-9", orderNumber: "A-9"), content: content, pushType: .token)
        }
        _ = launchApp(on: phone, server: server, files: files)
        try await waitUntil { !reports(server, .updateToken).isEmpty }
        #expect(reports(server, .updateToken).first?.activityId == "order-9")
        #expect(reports(server, .updateToken).first?.token == activity.pushToken.map(hex))

        phone.userDismisses(activity: activity.id)
        try await waitUntil { !reports(server, .dismissed).isEmpty }
        #expect(reports(server, .dismissed).map(\.activityId) == ["order-9"])
        #expect(reports(server, .ended).isEmpty)
        await server.stop()
    }

    /// Reports wait for the device's registration, and are retried while the server is unavailable.
    @Test func reportsWaitForTheRegistrationAndAreRetried() async throws {
        let server = try ReportServer()
        server.beUnavailable(for: 2)
        let files = TemporaryDirectory("live-activities")
        let phone = SimulatedActivityDevice(iOSVersion: .init(17, 5))
        let client = launchApp(on: phone, server: server, files: files, register: false)
        try await waitUntil { client.hasPendingLiveActivityReports }
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.reports.isEmpty)

        client.registerDeviceToken(Self.deviceToken)
        try await waitUntil { !server.reports.isEmpty }
        #expect(server.recorded.withLock { $0.refusedReports } == 2)
        #expect(server.reports.map(\.deviceToken) == [Self.deviceHex])
        try await waitUntil { !client.hasPendingLiveActivityReports }
        await server.stop()
    }

    /// Before iOS 17.2 there is no push-to-start token to report; an activity the app starts is
    /// still reported.
    @Test func beforeIOS17_2OnlyTheAppsOwnActivitiesAreReported() async throws {
        let server = try ReportServer()
        let files = TemporaryDirectory("live-activities")
        let phone = SimulatedActivityDevice(iOSVersion: .init(16, 4))
        _ = launchApp(on: phone, server: server, files: files)
        let content = ActivityContent(state: DeliveryAttributes.ContentState(status: "cooking", minutesLeft: 20), staleDate: nil)
        _ = try SimulatedActivityDevice.$bound.withValue(phone) {
            try Activity.request(attributes: DeliveryAttributes(notibaseActivityID: "order-3", orderNumber: "A-3"), content: content, pushType: .token)
        }
        try await waitUntil { !reports(server, .updateToken).isEmpty }
        #expect(reports(server, .updateToken).map(\.activityId) == ["order-3"])
        #expect(reports(server, .pushToStartToken).isEmpty)
        await server.stop()
    }

    private func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
