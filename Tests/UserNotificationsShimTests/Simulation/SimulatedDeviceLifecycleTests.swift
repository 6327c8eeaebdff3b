import Foundation
import Testing
import UserNotificationsShim
import NotibaseTestSupport

@Suite("SimulatedDevice lifetime")
struct SimulatedDeviceLifecycleTests {
    @Test func aReleasedDeviceGoesAwayWithItsAttachmentStore() async throws {
        let files = TemporaryDirectory()
        let image = try files.file(named: "photo.jpg")
        weak var released: SimulatedDevice?
        var store: URL?
        do {
            let device = SimulatedDevice()
            device.readLatency = .never  // a hung read must not keep the device alive either
            device.center.getNotificationCategories { _ in }
            let drawn = await device.deliver(payload: payload(extra: ["test_file": image.path]), to: AttachmentStoreTests.attaching())
            #expect(drawn.attachments.count == 1)
            store = device.attachmentStoreDirectory
            released = device
        }
        // The device lives while its threads finish (the extension's didReceive may still be returning).
        let deadline = ContinuousClock.now + .seconds(1)
        while released != nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(released == nil)
        let directory = try #require(store)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func aGivenStoreDirectoryIsKept() async throws {
        let files = TemporaryDirectory()
        let image = try files.file(named: "photo.jpg")
        let store = files.url.appendingPathComponent("store", isDirectory: true)
        do {
            let device = SimulatedDevice(name: "kept", attachmentStoreDirectory: store)
            await device.deliver(payload: payload(extra: ["test_file": image.path]), to: AttachmentStoreTests.attaching())
        }
        #expect(FileManager.default.fileExists(atPath: store.path))
    }
}
