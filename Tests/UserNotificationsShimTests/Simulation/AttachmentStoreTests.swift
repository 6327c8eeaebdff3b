import Foundation
import Testing
import UserNotificationsShim
import NotibaseTestSupport

@Suite("Attachments are validated again and moved after the extension finishes")
struct AttachmentStoreTests {
    /// An extension that attaches the file at the payload's `test_file`, then runs `afterAttaching`.
    static func attaching(afterAttaching: @escaping (URL) -> Void = { _ in }) -> ClosureExtension {
        ClosureExtension { request, handler in
            let content = request.content.mutableCopy() as! UNMutableNotificationContent
            let url = URL(fileURLWithPath: content.userInfo["test_file"] as! String)
            content.attachments = [try! UNNotificationAttachment(identifier: "image", url: url)]
            afterAttaching(url)
            handler(content)
        }
    }

    @Test func anAcceptedFileIsMovedIntoTheStore() async throws {
        let files = TemporaryDirectory()
        let image = try files.file(named: "photo.jpg", size: 2_048)
        let device = SimulatedDevice()

        let drawn = await device.deliver(payload: payload(extra: ["test_file": image.path]), to: Self.attaching())

        let shown = try #require(drawn.attachments.first)
        #expect(shown.identifier == "image")
        #expect(shown.type == "public.jpeg")
        #expect(shown.fileSize == 2_048)
        #expect(shown.storedPath.hasPrefix(device.attachmentStoreDirectory.path))
        #expect(FileManager.default.fileExists(atPath: shown.storedPath))
        #expect(!FileManager.default.fileExists(atPath: image.path), "iOS moves the file away")

        let delivered = try #require(await device.center.deliveredNotifications().first)
        #expect(delivered.request.content.attachments.first?.url.path == shown.storedPath)
    }

    @Test func copyModeLeavesTheFile() async throws {
        let files = TemporaryDirectory()
        let image = try files.file(named: "photo.png")
        let device = SimulatedDevice()
        device.attachmentHandling = .copy
        let drawn = await device.deliver(payload: payload(extra: ["test_file": image.path]), to: Self.attaching())
        #expect(drawn.attachments.count == 1)
        #expect(FileManager.default.fileExists(atPath: image.path))
    }

    @Test func aFileGoneBeforeDisplayIsDropped() async throws {
        let files = TemporaryDirectory()
        let image = try files.file(named: "photo.gif")
        let serviceExtension = Self.attaching { try? FileManager.default.removeItem(at: $0) }

        let drawn = await SimulatedDevice().deliver(payload: payload(extra: ["test_file": image.path]), to: serviceExtension)

        #expect(drawn.attachments.isEmpty)
        #expect(drawn.droppedAttachments == [DrawnNotification.DroppedAttachment(identifier: "image", type: "com.compuserve.gif",
                                                                                 path: image.path, reason: .fileMissing)])
        #expect(drawn.contentSource == .serviceExtension, "the notification is still shown")
    }

    /// iOS reads the bytes: an HTML error page saved as `photo.jpg` (right extension, right hint)
    /// is not an image, and is dropped; the notification is still shown.
    @Test(arguments: [("photo.jpg", "public.jpeg"), ("photo.png", "public.png"), ("photo.gif", "com.compuserve.gif")])
    func aFileWhoseBytesAreNotItsTypeIsDropped(name: String, type: String) async throws {
        let files = TemporaryDirectory()
        let page = try files.file(named: name, size: 38, contents: Array("<!doctype html><title>Not found</title>".utf8))
        let drawn = await SimulatedDevice().deliver(payload: payload(extra: ["test_file": page.path]), to: Self.attaching())
        #expect(drawn.attachments.isEmpty)
        #expect(drawn.droppedAttachments == [DrawnNotification.DroppedAttachment(identifier: "image", type: type, path: page.path,
                                                                                 reason: .contentsDoNotMatchType)])
        #expect(drawn.contentSource == .serviceExtension)
        // A PNG's bytes under a .jpg name are not a JPEG either.
        let png = try files.file(named: "other.jpg", size: 64, contents: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let mislabelled = await SimulatedDevice().deliver(payload: payload(extra: ["test_file": png.path]), to: Self.attaching())
        #expect(mislabelled.droppedAttachments.map(\.reason) == [.contentsDoNotMatchType])
    }

    @Test func reusingOneCachedFileFailsTheSecondTime() async throws {
        let files = TemporaryDirectory()
        let cached = try files.file(named: "logo.png")
        let device = SimulatedDevice()
        let first = await device.deliver(payload: payload(extra: ["test_file": cached.path]), to: Self.attaching())
        #expect(first.attachments.count == 1)

        let second = await device.deliver(payload: payload(extra: ["test_file": cached.path]),
                                          to: ClosureExtension { request, handler in
            let content = request.content.mutableCopy() as! UNMutableNotificationContent
            #expect(throws: UNError(.attachmentInvalidURL)) { try UNNotificationAttachment(identifier: "logo", url: cached) }
            handler(content)
        })
        #expect(second.attachments.isEmpty)
    }

    @Test func aFileThatGrewPastItsLimitIsDropped() async throws {
        let files = TemporaryDirectory()
        let audio = try files.file(named: "chime.mp3", size: 1_000)
        let serviceExtension = Self.attaching { url in
            let handle = try? FileHandle(forWritingTo: url)
            try? handle?.truncate(atOffset: 5_000_001)
            try? handle?.close()
        }
        let drawn = await SimulatedDevice().deliver(payload: payload(extra: ["test_file": audio.path]), to: serviceExtension)
        #expect(drawn.droppedAttachments.map(\.reason) == [.fileTooLarge])
    }
}
