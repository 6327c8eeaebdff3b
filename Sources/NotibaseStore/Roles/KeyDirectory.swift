package import NotibaseDomain
/// Where keys are looked up: the role of the store the authenticator needs (``Authenticator``).
package protocol KeyDirectory: Sendable {
    /// The app and kind of the key whose hash is `hash`.
    func keyOwner(hash: [UInt8]) async throws -> KeyOwner?
}
