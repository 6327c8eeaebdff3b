import Foundation
import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// The web console's static files (`Console/Files`, a SwiftPM resource: `Files/` in the
/// ``ResourceDirectory``),
/// served at `/console/`: read once, each with its content type, a strict Content-Security-Policy
/// (scripts and styles from this server only, no inline script), `nosniff`, and `no-cache` so an
/// upgraded server is never shown with an old page.
package enum Console {
    package struct File: Sendable {
        package var contentType: String
        package var bytes: [UInt8]
    }

    /// The policy every console answer carries. Images may come from any https host: the preview
    /// shows the message's own image.
    package static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Every file by its path under `/console/` (`index.html`, `js/app.js`, …).
    package static let files: [String: File] = load()

    package static func serves(_ path: String) -> Bool {
        path == "/console" || path.hasPrefix("/console/")
    }

    /// Whether `request` is a browser's page load (`GET` or `HEAD` accepting `text/html`), which
    /// `/` sends to the console; an API client asking for JSON gets the API's 404.
    package static func isBrowserVisit(_ request: HTTPRequest) -> Bool {
        guard request.method == "GET" || request.method == "HEAD", let accept = request.header("accept") else { return false }
        return accept.lowercased().contains("text/html")
    }

    /// Where a browser that opened `/` goes.
    package static let rootRedirect = HTTPResponse(status: 302, headers: [("Location", "/console/"), ("Cache-Control", "no-cache")])

    package static func response(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = APIError(status: 405, code: "method_not_allowed", message: "\(request.path) accepts GET, HEAD", field: nil).response
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        if request.path == "/console" {
            return HTTPResponse(status: 308, headers: [("Location", "/console/"), ("Cache-Control", "no-cache")])
        }
        var name = String(request.path.dropFirst("/console/".count))
        if name.isEmpty { name = "index.html" }
        guard let file = files[name] else {
            return APIError(status: 404, code: "not_found", message: "the console has no \(request.path); open /console/", field: nil).response
        }
        return HTTPResponse(status: 200, headers: [
            ("Content-Type", file.contentType),
            ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-cache"),
        ], body: request.method == "HEAD" ? [] : file.bytes)
    }

    package static func contentType(of name: String) -> String? {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "txt": "text/plain; charset=utf-8"
        default: nil
        }
    }

    private static func load() -> [String: File] {
        guard case .success(let resources) = ResourceDirectory.current else { return [:] }
        let root = resources.url.appendingPathComponent("Files")
        var files: [String: File] = [:]
        let prefix = root.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [:] }
        for case let url as URL in walker {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix), let type = contentType(of: path), let data = FileManager.default.contents(atPath: path) else { continue }
            files[String(path.dropFirst(prefix.count))] = File(contentType: type, bytes: Array(data))
        }
        return files
    }
}
