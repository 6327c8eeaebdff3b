import NotibaseCore
import NotibaseSenders
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

extension AppsAPI {
    /// `{"state": "untested" | "testing" | "verified" | "rejected" | "unreachable", "reason", "fix",
    /// "startedAt", "testedAt", "environments"}`: what the provider said when asked about the
    /// credentials (docs/decisions/0046); each field but `state` `null` until there is one, and
    /// `environments` (APNs: each environment's `{state, reason, fix}`) only once tested.
    package struct TestBody: Encodable {
        package var result: CredentialTestResult

        package init(_ result: CredentialTestResult) {
            self.result = result
        }

        package enum CodingKeys: String, CodingKey { case state, reason, fix, startedAt, testedAt, environments }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(result.state.rawValue, forKey: .state)
            try c.encode(result.reason, forKey: .reason)
            try c.encode(result.fix, forKey: .fix)
            try c.encode(result.startedAt?.timestamp, forKey: .startedAt)
            try c.encode(result.testedAt?.timestamp, forKey: .testedAt)
            if let environments = result.environments { try c.encode(environments, forKey: .environments) }
        }
    }

    /// `POST /v1/apps/{appId}/credentials/{apns|fcm}/test`: asks the provider now. 200 with the
    /// result when it came within ``CredentialTester/answerWait``, else 202 with `testing` (the
    /// test goes on; the app's credentials show its result). Behind the server key's rate limit,
    /// and ``CredentialTester/perAppPerMinute`` tests an app: 429 past that.
    package static func addCredentialTests(to router: inout Router, _ context: APIContext) {
        for provider in ["apns", "fcm"] {
            router.add(.post, "/v1/apps/{appId}/credentials/\(provider)/test") { request, parameters in
                let app = try await access(request, parameters["appId"], context)
                guard let tester = context.credentialTests else {
                    throw APIError(
                        status: 409, code: "credentials_not_tested",
                        message: "this server sends without provider credentials (--sender accept or the demo): there is nothing to test", field: nil)
                }
                switch try await tester.start(appID: app.id, provider: provider) {
                case .none:
                    throw APIError(status: 404, code: "not_found", message: "the app has no \(provider.uppercased()) credentials: upload them with PUT /v1/apps/\(app.id)/credentials/\(provider)", field: nil)
                case .tooMany(let seconds):
                    var error = APIError(
                        status: 429, code: "rate_limited",
                        message: "at most \(CredentialTester.perAppPerMinute) credential tests a minute per app; retry after \(seconds) s", field: nil, retryAfter: seconds)
                    error.limit = "credentialTestsPerMinute"
                    throw error
                case .running(let testing, let task):
                    if let result = await CredentialTester.result(of: task, within: CredentialTester.answerWait) {
                        return JSON.response(status: 200, TestBody(result))
                    }
                    return JSON.response(status: 202, TestBody(testing))
                }
            }
        }
    }

    /// Starts the test of credentials just stored (in the background: the upload does not wait),
    /// and what the upload's answer shows of it: `testing`, or `untested` when this server tests
    /// none or the app has started its share of tests this minute.
    package static func testOnUpload(app: AppRecord, provider: String, _ context: APIContext) async -> CredentialTestResult {
        guard let tester = context.credentialTests else { return CredentialTestResult() }
        do {
            switch try await tester.start(appID: app.id, provider: provider) {
            case .running(let testing, _): return testing
            case .tooMany: return CredentialTestResult(state: .untested, reason: "too many tests", fix: "the app tested credentials \(CredentialTester.perAppPerMinute) times this minute: test them in a minute")
            case .none: return CredentialTestResult()
            }
        } catch {
            context.logger.error("could not start the credentials test", ["appId": .string(app.id), "provider": .string(provider), "error": .string("\(error)")])
            return CredentialTestResult()
        }
    }
}
