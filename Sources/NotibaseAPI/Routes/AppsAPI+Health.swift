package import NotibaseCore
package import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

extension AppsAPI {
    /// One provider's credentials as `GET /v1/apps/{appId}` shows them: the summary (nothing
    /// secret; a certificate's `expiresAt` with `expiresSoon`), when they were uploaded, their
    /// ``HealthBody`` and their test (``TestBody``).
    package struct CredentialBody: Encodable {
        package var summary: [String: JSONValue]
        package var health: HealthBody
        package var test: CredentialTestResult

        private struct Key: CodingKey {
            package var stringValue: String
            package var intValue: Int? { nil }
            package init(stringValue: String) { self.stringValue = stringValue }
            package init?(intValue: Int) { nil }
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for (name, value) in summary { try c.encode(value, forKey: Key(stringValue: name)) }
            try c.encode(health, forKey: Key(stringValue: "health"))
            try c.encode(TestBody(test), forKey: Key(stringValue: "test"))
        }
    }

    /// `{"state": "ok" | "failing" | "untested", "lastSuccessAt", "lastFailureAt", "lastFailureReason"}`,
    /// each of the last three `null` until there is one.
    package struct HealthBody: Encodable {
        package var state: String
        package var lastSuccessAt: String?
        package var lastFailureAt: String?
        package var lastFailureReason: String?

        package init(_ health: CredentialHealth) {
            state = health.state.rawValue
            lastSuccessAt = health.lastSuccessAt?.timestamp
            lastFailureAt = health.lastFailureAt?.timestamp
            lastFailureReason = health.lastFailureReason
        }

        package enum CodingKeys: String, CodingKey { case state, lastSuccessAt, lastFailureAt, lastFailureReason }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(state, forKey: .state)
            try c.encode(lastSuccessAt, forKey: .lastSuccessAt)
            try c.encode(lastFailureAt, forKey: .lastFailureAt)
            try c.encode(lastFailureReason, forKey: .lastFailureReason)
        }
    }
}
