import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseExtension
@testable import NotibaseExtensionTestSupport

@Suite("Image download", .serialized, .tags(.processes))
struct ImageDownloaderTests {
    let server = ImageServer.shared
    let directory = TemporaryDirectory("notibase-images")

    var downloader: ImageDownloader {
        ImageDownloader(policy: ImageDownloadPolicy(allowsLoopbackHTTP: true, directory: directory.url))
    }

    func fetch(_ path: String, timeout: Duration = .seconds(5)) async -> ImageFetchResult {
        await downloader.fetch(server.url(path), timeout: timeout)
    }

    func expectImage(_ result: ImageFetchResult, _ type: ImageType, bytes: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .downloaded(let file, let found, let count) = result else {
            Issue.record("expected an image, got \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect(found == type, sourceLocation: sourceLocation)
        #expect(file.pathExtension == type.fileExtension, sourceLocation: sourceLocation)
        #expect(FileManager.default.fileExists(atPath: file.path), sourceLocation: sourceLocation)
        if let bytes {
            #expect(count == bytes, sourceLocation: sourceLocation)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
            #expect(size == bytes, sourceLocation: sourceLocation)
        }
    }

    func expectFailure(_ result: ImageFetchResult, mentioning words: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failed(let reason) = result else {
            Issue.record("expected a failure, got \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect(words.isEmpty || reason.contains(words), "\(reason)", sourceLocation: sourceLocation)
        // A failed download leaves no file behind.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
        #expect(left.filter { $0.hasSuffix(".download") }.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func typeFromContentType() async {
        expectImage(await fetch("/img/photo?kind=png&size=5000"), .png, bytes: 5000)
        expectImage(await fetch("/img/anim?kind=gif"), .gif)
    }

    /// The URL has no extension and the server says octet-stream: the bytes tell it is a JPEG, and
    /// the file is named `.jpg`, so `UNNotificationAttachment` accepts it.
    @Test func typeFromMagicBytesWhenTheServerIsVague() async {
        expectImage(await fetch("/img/noextension?kind=jpeg&ctype=application/octet-stream"), .jpeg)
        expectImage(await fetch("/img/noextension?kind=png&ctype=none"), .png)
    }

    /// iOS reads the bytes: a URL's extension does not make a file an image.
    @Test func theURLsExtensionIsNotEnough() async {
        expectFailure(await fetch("/img/picture.gif?kind=bytes&ctype=none"), mentioning: "bytes are not JPEG, PNG or GIF")
        expectFailure(await fetch("/img/picture?kind=bytes&ctype=none"), mentioning: "bytes are not JPEG, PNG or GIF")
    }

    /// An HTML error page served as `image/jpeg` (a CDN's 200 for a missing file) is not an image.
    @Test func theBytesMustBeTheDeclaredType() async {
        expectFailure(await fetch("/img/photo.jpg?kind=html&ctype=image/jpeg"), mentioning: "the server called it image/jpeg, but its bytes are not an image")
        expectFailure(await fetch("/img/photo.jpg?kind=html&ctype=image/jpeg"), mentioning: "HTML")
        expectFailure(await fetch("/img/photo.png?kind=bytes&ctype=image/png"), mentioning: "bytes are not an image")
        // A PNG labelled JPEG is still an image: the bytes name its type.
        expectImage(await fetch("/img/photo.jpg?kind=png&ctype=image/jpeg"), .png)
    }

    @Test func unsupportedTypesAreRefused() async {
        expectFailure(await fetch("/img/a.webp?kind=webp"), mentioning: "image/webp")
        expectFailure(await fetch("/img/error?kind=html"), mentioning: "text/html")
    }

    @Test func httpErrors() async {
        expectFailure(await fetch("/status/404"), mentioning: "HTTP 404")
        expectFailure(await fetch("/status/500"), mentioning: "HTTP 500")
    }

    @Test func redirectsAreFollowedButNotForever() async {
        let target = server.url("/img/final?kind=jpeg")
        expectImage(await fetch("/redirect?to=" + target), .jpeg)
        expectFailure(await fetch("/loop"), mentioning: "redirected more than 5 times")
    }

    @Test func plainHTTPIsRefusedByDefault() async {
        let strict = ImageDownloader(policy: ImageDownloadPolicy(directory: directory.url))
        expectFailure(await strict.fetch(server.url("/img/a?kind=jpeg"), timeout: .seconds(2)), mentioning: "http; iOS loads only https")
        expectFailure(await strict.fetch("ftp://example.com/a.jpg", timeout: .seconds(2)), mentioning: "scheme is ftp")
        expectFailure(await strict.fetch("not a url", timeout: .seconds(2)), mentioning: "not a valid URL")
        // Loopback only, even when allowed.
        expectFailure(await downloader.fetch("http://example.com/a.jpg", timeout: .seconds(2)), mentioning: "http; iOS loads only https")
    }

    @Test func announcedSizeOverTheLimitIsRefusedAtOnce() async {
        expectFailure(await fetch("/img/big?kind=jpeg&size=10000001"), mentioning: "10000001 bytes")
        expectImage(await fetch("/img/max?kind=jpeg&size=10000000"), .jpeg, bytes: 10_000_000)
    }

    /// No Content-Length: the limit is enforced while streaming, and the download stops.
    @Test func unannouncedSizeIsCheckedWhileStreaming() async {
        expectFailure(await fetch("/img/endless?kind=jpeg&chunked=1&size=30000000"), mentioning: "larger than 10000000 bytes")
        expectImage(await fetch("/img/chunked?kind=png&chunked=1&size=300000"), .png, bytes: 300_000)
    }

    @Test func aSlowServerHitsTheDeadline() async {
        let start = ContinuousClock.now
        expectFailure(await fetch("/hang", timeout: .milliseconds(500)), mentioning: "did not arrive within 500 ms")
        expectFailure(await fetch("/img/slow?kind=jpeg&size=1000000&trickle=0.2", timeout: .milliseconds(600)), mentioning: "did not arrive within 600 ms")
        #expect(ContinuousClock.now - start < .seconds(4), "a deadline must not turn into a hang")
    }
}

@Suite("Image type detection")
struct ImageTypeTests {
    @Test(arguments: [
        ("image/jpeg", ImageType.Detection.supported(.jpeg)), ("IMAGE/PNG; charset=binary", .supported(.png)),
        ("image/gif", .supported(.gif)), ("application/octet-stream", .unknown), ("image/webp", .unsupported("image/webp")),
        ("image/heic", .unsupported("image/heic")),
    ])
    func contentTypes(header: String, expected: ImageType.Detection) {
        #expect(ImageType.fromContentType(header) == expected)
    }

    @Test func magic() {
        #expect(ImageType.fromMagic([0xFF, 0xD8, 0xFF, 0xDB]) == .jpeg)
        #expect(ImageType.fromMagic([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageType.fromMagic(Array("GIF87a".utf8)) == .gif)
        #expect(ImageType.fromMagic(Array("RIFF....WEBP".utf8)) == nil)
        #expect(ImageType.fromMagic([]) == nil)
    }

    @Test func pathExtensions() {
        #expect(ImageType.fromPathExtension("https://x.test/a/b.JPG?v=2") == .jpeg)
        #expect(ImageType.fromPathExtension("https://x.test/a.b/c") == nil)
        #expect(ImageType.fromPathExtension("https://x.test/a.webp") == nil)
    }
}
