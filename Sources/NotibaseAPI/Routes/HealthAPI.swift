import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// `/healthz` (answered on the polling thread: the cheapest route, the benchmark ceiling; it names
/// the running version, and the trial settings when there are any), `/metrics` (Prometheus text)
/// and `/openapi.json`.
package enum HealthAPI {
    /// The answer to `GET /healthz`, made once: always 200 (load balancers keep sending), with
    /// `"trial": ["sender=simulated", …]` when the server runs with settings for tests and demos.
    package static func healthz(trial: [TrialSetting]) -> HTTPResponse {
        var body = #"{"status":"ok","version":"\#(NotibaseVersion.current)""#
        if !trial.isEmpty {
            body += #","trial":["# + trial.map { #""\#($0.rawValue)""# }.joined(separator: ",") + "]"
        }
        return HTTPResponse(status: 200, contentType: "application/json", body: Array((body + "}").utf8))
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        let healthz = healthz(trial: context.trial)
        router.add(.get, "/healthz") { _, _ in healthz }

        // Only what was recorded: a scrape never reaches the database (QueueDepthProbe).
        router.add(.get, "/metrics") { request, _ in
            try authorizeMetrics(request, tokenHash: context.metricsTokenHash)
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(context.metrics.render().utf8))
        }

        router.add(.get, "/openapi.json") { _, _ in
            HTTPResponse(status: 200, contentType: "application/json", body: OpenAPIDocument.bytes)
        }
    }

    /// With a metrics token (`--metrics-token`), throws 401 unless the request carries it as
    /// `Authorization: Bearer <token>`. The hashes are compared, in constant time, so neither the
    /// token's bytes nor its length show in how long a refusal takes.
    package static func authorizeMetrics(_ request: HTTPRequest, tokenHash: [UInt8]?) throws {
        guard let tokenHash else { return }
        guard let header = request.header("authorization") else {
            throw APIError(status: 401, code: "missing_key", message: "/metrics needs the metrics token: send Authorization: Bearer <token>", field: nil)
        }
        let presented = header.hasPrefix("Bearer ") ? header.dropFirst(7) : ""
        guard Crypto.constantTimeEqual(try Crypto.sha256(presented.utf8), tokenHash) else {
            throw APIError(status: 401, code: "invalid_key", message: "this is not the metrics token the server was started with (--metrics-token)", field: nil)
        }
    }
}
