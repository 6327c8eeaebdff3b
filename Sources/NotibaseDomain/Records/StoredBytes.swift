/// A message its app's stored-bytes quota has no room for (``NewMessage/storedBytesLimit``): the
/// store refused it and stored nothing.
package struct StoredBytesExceeded: Error, Sendable {
    /// What the app's stored messages take now.
    package var used: Int
    package var limit: Int
    package var message: Int

    package init(used: Int, limit: Int, message: Int) {
        self.used = used
        self.limit = limit
        self.message = message
    }
}

/// How the stores keep each app's count of stored bytes (`apps.stored_bytes`): added to in the
/// transaction that stores a message, when it fits, and taken from in the one retention removes it
/// in. A count in the app's row rather than a sum over its messages, which would read the app's
/// whole history at every send (docs/decisions/0014).
package enum StoredBytes {
    /// Each app's bytes among removed messages (app ID, bytes).
    package static func byApp(_ removed: [(app: String, bytes: Int)]) -> [String: Int] {
        removed.reduce(into: [:]) { $0[$1.app, default: 0] += $1.bytes }
    }
}
