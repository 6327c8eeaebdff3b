package import NotibaseSenders

/// What the provider said when asked about an app's credentials for one provider
/// (``CredentialTester``), beside their health from real sends (docs/decisions/0046): stored as
/// JSON in the credentials' row, and shown as `credentials.{apns|fcm}.test`.
package struct CredentialTestResult: Sendable, Equatable, Codable {
    /// `untested` until a test starts (and after every upload that starts none), `testing` while
    /// one runs, then the provider's verdict.
    package enum State: String, Sendable, Codable {
        case untested, testing, verified, rejected, unreachable
    }

    package var state = State.untested
    /// The provider's reason (`BadDeviceToken`, `InvalidProviderToken`, `PERMISSION_DENIED`…).
    package var reason: String?
    /// What it means and what to do.
    package var fix: String?
    /// When the test started and when the provider answered (milliseconds since 1970).
    package var startedAt: Int?
    package var testedAt: Int?
    /// APNs: the verdict in each environment tested (`production`, `sandbox`).
    package var environments: [String: CredentialVerdict]?

    /// A test that started at `now`.
    package static func testing(at now: Int) -> CredentialTestResult {
        CredentialTestResult(state: .testing, startedAt: now)
    }

    /// The result of a test started at `startedAt`: the worst verdict of its environments (one for
    /// FCM), named after its environment when there were several.
    package static func finished(_ verdicts: [(environment: String?, verdict: CredentialVerdict)], startedAt: Int, at now: Int) -> CredentialTestResult {
        let worst = verdicts.min { rank($0.verdict.state) < rank($1.verdict.state) }
        var result = CredentialTestResult(startedAt: startedAt, testedAt: now)
        guard let worst else { return result }
        result.state = State(rawValue: worst.verdict.state.rawValue) ?? .unreachable
        result.reason = worst.verdict.reason
        result.fix = worst.verdict.fix
        if verdicts.count > 1, let environment = worst.environment, result.state != .verified {
            result.fix = "In \(environment): " + (result.fix ?? "")
        }
        let named = verdicts.compactMap { entry in entry.environment.map { ($0, entry.verdict) } }
        if !named.isEmpty { result.environments = Dictionary(named) { a, _ in a } }
        return result
    }

    private static func rank(_ state: CredentialVerdict.State) -> Int {
        switch state {
        case .rejected: 0
        case .unreachable: 1
        case .verified: 2
        }
    }

    /// How long a `testing` state is believed: a test that never finished (the server stopped
    /// meanwhile) shows as `untested` after this.
    package static let abandonedAfter = 120_000

    /// As shown at `now`: a `testing` that is older than ``abandonedAfter`` is `untested`.
    package func shown(now: Int) -> CredentialTestResult {
        guard state == .testing, let startedAt, now - startedAt > Self.abandonedAfter else { return self }
        return CredentialTestResult(state: .untested, reason: "the last test did not finish (the server stopped?)", fix: "test them again", startedAt: startedAt)
    }

    package init(state: State = State.untested, reason: String? = nil, fix: String? = nil, startedAt: Int? = nil, testedAt: Int? = nil, environments: [String: CredentialVerdict]? = nil) {
        self.state = state
        self.reason = reason
        self.fix = fix
        self.startedAt = startedAt
        self.testedAt = testedAt
        self.environments = environments
    }
}
