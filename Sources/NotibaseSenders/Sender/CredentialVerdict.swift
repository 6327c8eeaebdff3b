/// What a provider said of an app's credentials when asked with a ``CredentialTest`` push: they
/// work, the provider refused them (with its reason and what to fix), or no verdict (unreachable).
package struct CredentialVerdict: Sendable, Equatable, Codable {
    /// A verdict's state. `verified` and `rejected` are the provider's word; `unreachable` is
    /// no word (a connection that failed, a timeout, an answer that says nothing of credentials).
    package enum State: String, Sendable, Hashable, Codable, CaseIterable {
        case verified, rejected, unreachable
    }

    package var state: State
    /// The provider's own reason (`BadDeviceToken`, `InvalidProviderToken`, `PERMISSION_DENIED`…),
    /// or what happened when it gave none.
    package var reason: String?
    /// What it means and what to do about it; nil when there is nothing to do.
    package var fix: String?

    package init(state: State, reason: String? = nil, fix: String? = nil) {
        self.state = state
        self.reason = reason
        self.fix = fix
    }
}
