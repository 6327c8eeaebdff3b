import Foundation
import Testing
import UserNotificationsShim
import NotibaseTestSupport

@Suite("UNNotificationAttachment: iOS's type and size validation")
struct UNNotificationAttachmentTests {
    static let typesByExtension: [(String, String)] = [
        ("jpg", "public.jpeg"), ("JPEG", "public.jpeg"), ("png", "public.png"), ("gif", "com.compuserve.gif"),
        ("aif", "public.aiff-audio"), ("aiff", "public.aiff-audio"), ("wav", "com.microsoft.waveform-audio"),
        ("mp3", "public.mp3"), ("m4a", "public.mpeg-4-audio"),
        ("mpg", "public.mpeg"), ("mpeg", "public.mpeg"), ("m2v", "public.mpeg-2-video"), ("mp4", "public.mpeg-4"),
        ("avi", "public.avi"),
    ]

    @Test(arguments: typesByExtension)
    func theExtensionNamesTheType(pathExtension: String, type: String) throws {
        let files = TemporaryDirectory()
        let attachment = try UNNotificationAttachment(identifier: "media", url: files.file(named: "media.\(pathExtension)"))
        #expect(attachment.type == type)
        #expect(attachment.identifier == "media")
    }

    @Test(arguments: ["webp", "heic", "svg", "mov", "mp2", "txt"])
    func unsupportedExtensionsAreRejected(pathExtension: String) throws {
        let files = TemporaryDirectory()
        let url = try files.file(named: "media.\(pathExtension)")
        #expect(throws: UNError(.attachmentUnrecognizedType)) { try UNNotificationAttachment(identifier: "", url: url) }
    }

    @Test func aDownloadedFileWithoutExtensionNeedsATypeHint() throws {
        let files = TemporaryDirectory()
        let download = try files.file(named: "CFNetworkDownload_x8Yz1")
        #expect(throws: UNError(.attachmentUnrecognizedType)) { try UNNotificationAttachment(identifier: "image", url: download) }

        let hinted = try UNNotificationAttachment(identifier: "image", url: download,
                                                  options: [UNNotificationAttachmentOptionsTypeHintKey: "public.jpeg"])
        #expect(hinted.type == "public.jpeg")
    }

    @Test func theHintWinsOverTheExtension() throws {
        let files = TemporaryDirectory()
        let url = try files.file(named: "photo.jpg")
        let png = try UNNotificationAttachment(identifier: "", url: url, options: [UNNotificationAttachmentOptionsTypeHintKey: "public.png"])
        #expect(png.type == "public.png")
        #expect(throws: UNError(.attachmentUnrecognizedType)) {
            try UNNotificationAttachment(identifier: "", url: url, options: [UNNotificationAttachmentOptionsTypeHintKey: "org.webmproject.webp"])
        }
    }

    @Test func theURLMustBeAReadableFile() throws {
        let files = TemporaryDirectory()
        let remote = try #require(URL(string: "https://cdn.example.com/photo.jpg"))
        let missing = files.url.appendingPathComponent("missing.jpg")
        try FileManager.default.createDirectory(at: files.url.appendingPathComponent("folder.jpg"), withIntermediateDirectories: true)
        for url in [remote, missing, files.url.appendingPathComponent("folder.jpg")] {
            #expect(throws: UNError(.attachmentInvalidURL)) { try UNNotificationAttachment(identifier: "", url: url) }
        }
    }

    static let limits: [(String, Int64)] = [("jpg", 10_000_000), ("png", 10_000_000), ("mp3", 5_000_000), ("mp4", 50_000_000)]

    @Test(arguments: limits)
    func eachTypeHasItsSizeLimit(pathExtension: String, limit: Int64) throws {
        let files = TemporaryDirectory()
        let atLimit = try files.file(named: "fits.\(pathExtension)", size: limit)
        let overLimit = try files.file(named: "big.\(pathExtension)", size: limit + 1)
        _ = try UNNotificationAttachment(identifier: "", url: atLimit)
        #expect(throws: UNError(.attachmentInvalidFileSize)) { try UNNotificationAttachment(identifier: "", url: overLimit) }
    }

    @Test func anEmptyIdentifierGetsAUniqueOne() throws {
        let files = TemporaryDirectory()
        let url = try files.file(named: "a.png")
        let first = try UNNotificationAttachment(identifier: "", url: url)
        let second = try UNNotificationAttachment(identifier: "", url: url)
        #expect(!first.identifier.isEmpty)
        #expect(first.identifier != second.identifier)
        #expect(first.url == url)
    }

    @Test func errorsMatchAsOnIOS() throws {
        let files = TemporaryDirectory()
        let url = try files.file(named: "animation.webp")
        do {
            _ = try UNNotificationAttachment(identifier: "", url: url)
            Issue.record("WebP was accepted")
        } catch UNError.attachmentUnrecognizedType {
            // The pattern Apple's bridged error supports.
        } catch {
            Issue.record("unexpected \(error)")
        }
        let error = UNError(.attachmentInvalidFileSize) as NSError
        #expect(error.domain == UNErrorDomain)
        #expect(UNErrorDomain == "UNErrorDomain")
        #expect(error.code == 102)
    }
}
