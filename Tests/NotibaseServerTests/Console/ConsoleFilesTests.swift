import Foundation
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

/// The web console's static files as `notibase serve` serves them: from the resource bundle, each
/// with its content type, a strict Content-Security-Policy, nosniff and no-cache.
@Suite("Console files")
struct ConsoleFilesTests {
    @Test func theIndexIsServedWithAStrictPolicy() async throws {
        let harness = try await Harness()
        let index = await harness.request("GET", "/console/", key: nil)
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.text.contains(#"<script type="module" src="js/app.js"></script>"#))
        let policy = try #require(index.headers["content-security-policy"])
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src 'self';"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("unsafe"))
        #expect(index.headers["x-content-type-options"] == "nosniff")
        #expect(index.headers["cache-control"] == "no-cache")
        #expect(index.headers["referrer-policy"] == "no-referrer")
    }

    @Test func theBarePathRedirectsSoRelativeLinksResolve() async throws {
        let harness = try await Harness()
        let bare = await harness.request("GET", "/console", key: nil)
        #expect(bare.status == 308)
        #expect(bare.headers["location"] == "/console/")
    }

    @Test(arguments: [
        ("js/app.js", "text/javascript; charset=utf-8"), ("js/pages/compose.js", "text/javascript; charset=utf-8"),
        ("js/confirm.js", "text/javascript; charset=utf-8"),
        ("css/console.css", "text/css; charset=utf-8"), ("icon.svg", "image/svg+xml"),
    ])
    func everyFileHasItsContentType(name: String, type: String) async throws {
        let harness = try await Harness()
        let file = await harness.request("GET", "/console/" + name, key: nil)
        #expect(file.status == 200)
        #expect(file.headers["content-type"] == type)
        #expect(file.headers["x-content-type-options"] == "nosniff")
        #expect(!file.text.isEmpty)
    }

    @Test(arguments: ["/console/missing.js", "/console/../openapi.json", "/console/js/../../API/openapi.json", "/console/js"])
    func nothingElseIsServed(path: String) async throws {
        let harness = try await Harness()
        let reply = await harness.request("GET", path, key: nil)
        #expect(reply.status == 404)
        #expect(reply.errorCode == "not_found")
    }

    @Test func onlyReadingIsAllowed() async throws {
        let harness = try await Harness()
        let reply = await harness.request("POST", "/console/index.html", key: nil, body: "{}")
        #expect(reply.status == 405)
        #expect(reply.headers["allow"] == "GET, HEAD")
        let head = await harness.request("HEAD", "/console/js/app.js", key: nil)
        #expect(head.status == 200 && head.text.isEmpty)
    }

    /// The console shows content from API users: no file may parse text as HTML or carry inline
    /// script or style (the policy would block them, and the page would silently break).
    @Test func noFileParsesTextAsHTMLOrInlinesScript() throws {
        #expect(Console.files.count >= 10)
        for (name, file) in Console.files where name.hasSuffix(".js") || name.hasSuffix(".html") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            for forbidden in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute('style'", " style=\"", "javascript:"] {
                #expect(!text.contains(forbidden), "\(name) uses \(forbidden)")
            }
            if name.hasSuffix(".html") {
                #expect(!text.contains("<script>"), "\(name) has an inline script")
                #expect(text.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(name) has an inline handler")
            }
        }
    }
}
