import NotibaseCore

extension AppsAPI {
    /// One provider's credentials as `GET /v1/apps/{appId}` shows them: the summary (nothing
    /// secret; a certificate's `expiresAt` with `expiresSoon`), when they were uploaded, their
    /// ``HealthBody`` and their test (``TestBody``).
    struct CredentialBody: Encodable {
        var summary: [String: JSONValue]
        var health: HealthBody
        var test: CredentialTestResult

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for (name, value) in summary { try c.encode(value, forKey: Key(stringValue: name)) }
            try c.encode(health, forKey: Key(stringValue: "health"))
            try c.encode(TestBody(test), forKey: Key(stringValue: "test"))
        }
    }

    /// `{"state": "ok" | "failing" | "untested", "lastSuccessAt", "lastFailureAt", "lastFailureReason"}`,
    /// each of the last three `null` until there is one.
    struct HealthBody: Encodable {
        var state: String
        var lastSuccessAt: String?
        var lastFailureAt: String?
        var lastFailureReason: String?

        init(_ health: CredentialHealth) {
            state = health.state.rawValue
            lastSuccessAt = health.lastSuccessAt?.timestamp
            lastFailureAt = health.lastFailureAt?.timestamp
            lastFailureReason = health.lastFailureReason
        }

        enum CodingKeys: String, CodingKey { case state, lastSuccessAt, lastFailureAt, lastFailureReason }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(state, forKey: .state)
            try c.encode(lastSuccessAt, forKey: .lastSuccessAt)
            try c.encode(lastFailureAt, forKey: .lastFailureAt)
            try c.encode(lastFailureReason, forKey: .lastFailureReason)
        }
    }
}
