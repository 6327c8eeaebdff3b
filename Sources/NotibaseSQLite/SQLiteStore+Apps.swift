package import NotibaseDomain
import NotibaseStore
extension SQLiteStore {
    /// Deletes an app and everything it owns, in one transaction: the foreign keys cascade from
    /// the app to its credentials, devices, messages, idempotency keys and receipts, and from its
    /// messages to their deliveries and their events.
    package func deleteApp(_ id: String) throws -> Bool {
        try connection.transaction {
            try connection.run("DELETE FROM apps WHERE id = ?", [.text(id)]) == 1
        }
    }

    /// The app and kind of the key whose hash is `hash`.
    package func keyOwner(hash: [UInt8]) throws -> KeyOwner? {
        for (column, kind) in [("server_key_hash", KeyKind.server), ("client_key_hash", .client)] {
            if let owner = try connection.first(
                "SELECT id, require_identity_verification FROM apps WHERE \(column) = ?", [.bytes(hash)],
                { KeyOwner(appID: $0.text(0), kind: kind, requiresIdentityVerification: $0.int(1) == 1) }) {
                return owner
            }
        }
        return nil
    }
}
