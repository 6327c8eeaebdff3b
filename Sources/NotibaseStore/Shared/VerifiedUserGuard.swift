import NotibaseDomain
/// The verified-user guard, in SQL once for both backends: a registration that protects verified
/// users (``DeviceUpsert/protectsVerifiedUsers``) changes, or deactivates, a device only while it
/// has no user or has the registration's user; otherwise the device stays another user's.
package enum VerifiedUserGuard {
    /// The condition: `protects` is the registration's flag as 1 or 0, `stored` the device's
    /// stored user, `user` the registration's user.
    package static func sql(protects: String, stored: String, user: String) -> String {
        "(\(protects) = 0 OR \(stored) IS NULL OR \(stored) = \(user))"
    }
}
