import Foundation
import Testing
@testable import Notibase
@testable import NotibaseExtension

/// Mistakes in the app's setup are logged (and fail an assertion in debug builds), never a crash
/// of a release build, never a silent fallback.
@Suite("The app's misconfigurations")
struct MisconfigurationTests {
    init() {
        SDKLog.assertsOnMisconfiguration.withLock { $0 = false }
    }

    @Test func anAppGroupWithoutAContainerIsLogged() {
        let group = "group.test.\(UUID().uuidString)"
        let configuration = NotibaseConfiguration(serverURL: URL(string: "https://push.example.com")!, clientKey: "nb_client_x", appGroup: group)
        #expect(configuration.sharedDirectory == nil)
        #expect(SDKLog.recent.contains { $0.contains("Notibase misconfigured") && $0.contains(group) })
    }

    /// No test in this process calls `Notibase.configure`: every call is a logged no-op.
    @Test func callsBeforeConfigureAreLoggedNoOps() async throws {
        #expect(Notibase.current == nil)
        Notibase.registerDeviceToken(Data([0xAB, 0xCD]))
        Notibase.setTags(["vip"])
        #expect(SDKLog.recent.contains { $0.contains("Notibase.registerDeviceToken(_:) was called before Notibase.configure(_:)") })
        #expect(SDKLog.recent.contains { $0.contains("Notibase.setTags(_:) was called before") })
        #expect(!SDKLog.recent.contains { $0.contains("abcd") })  // no token in the log
        await #expect(throws: NotConfiguredError.self) { try await Notibase.setAppCategories([]) }
        Notibase.liveActivities.observe(DeliveryAttributes.self)
        #expect(SDKLog.recent.contains { $0.contains("Notibase.liveActivities.observe(_:) was called before Notibase.configure(_:)") })
    }
}
