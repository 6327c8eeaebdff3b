import Foundation
import Testing
@testable import NotibaseExtension

/// The extension's Info.plist, read as a developer writes it, and the mistakes they see.
@Suite("The extension's configuration")
struct ExtensionConfigurationTests {
    init() {
        // These tests provoke misconfigurations on purpose: logged, not an assertion failure.
        SDKLog.assertsOnMisconfiguration.withLock { $0 = false }
    }

    @Test func aMissingAppGroupIsAnErrorTheDeveloperSees() {
        let group = "group.test.\(UUID().uuidString)"
        let configuration = ExtensionConfiguration.fromInfo(["NotibaseAppGroup": group], containerURL: { _ in nil })
        #expect(configuration.sharedDirectory == nil)
        #expect(SDKLog.recent.contains { $0.contains("Notibase misconfigured") && $0.contains(group) && $0.contains("App Groups") })
    }

    @Test func anAppGroupWithAContainerIsShared() {
        let group = "group.test.\(UUID().uuidString)"
        let container = URL(fileURLWithPath: "/tmp/\(group)")
        let configuration = ExtensionConfiguration.fromInfo(["NotibaseAppGroup": group], containerURL: { $0 == group ? container : nil })
        #expect(configuration.sharedDirectory == container)
        #expect(!SDKLog.recent.contains { $0.contains(group) })
    }

    @Test func plistValueTypes() {
        let key = "nb_client_\(UUID().uuidString)"
        var configuration = ExtensionConfiguration.fromInfo(
            ["NotibaseServerURL": "https://push.example.com", "NotibaseClientKey": key, "NotibaseCategoryCapacity": 32], containerURL: { _ in nil })
        #expect(configuration.receiptEndpoint == ReceiptEndpoint(serverURL: URL(string: "https://push.example.com")!, clientKey: key))
        #expect(configuration.categoryCapacity == 32)
        // A number typed as a string in Xcode's plist editor still counts.
        configuration = ExtensionConfiguration.fromInfo(["NotibaseCategoryCapacity": "48"], containerURL: { _ in nil })
        #expect(configuration.categoryCapacity == 48)
        // A wrong type is reported, and the default kept.
        configuration = ExtensionConfiguration.fromInfo(["NotibaseCategoryCapacity": true, "NotibaseClientKey": 7], containerURL: { _ in nil })
        #expect(configuration.categoryCapacity == 64)
        #expect(configuration.receiptEndpoint == nil)
        #expect(SDKLog.recent.contains { $0.contains("NotibaseCategoryCapacity must be a number") })
        #expect(SDKLog.recent.contains { $0.contains("must both be strings") })
        // The client key never reaches the log.
        #expect(!SDKLog.recent.contains { $0.contains(key) })
    }

    @Test func plainHTTPIsReported() {
        _ = ExtensionConfiguration.fromInfo(["NotibaseServerURL": "http://push.example.com", "NotibaseClientKey": "k"], containerURL: { _ in nil })
        #expect(SDKLog.recent.contains { $0.contains("NotibaseServerURL is not https") })
    }
}
