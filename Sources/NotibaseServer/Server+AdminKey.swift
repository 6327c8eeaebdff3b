import Foundation
import NotibaseDomain
package import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery

/// The admin key: only its SHA-256 is stored (the `admin_key_hash` setting, in SQLite or
/// PostgreSQL alike); the key itself is shown once, when it is made.
extension Server {
    private static let settingName = "admin_key_hash"

    /// The stored admin key's hash, after making sure there is one: the preset key
    /// (`NOTIBASE_ADMIN_KEY`) replaces the stored one; else the stored one stays; else a new key is
    /// made, returned to be shown once. Of nodes starting together on one database, only the node
    /// whose key was stored returns it.
    package static func adminKey(_ configuration: ServerConfiguration, store: any BackendStore) async throws -> (hash: [UInt8], new: String?) {
        if let preset = configuration.adminKey {
            guard APIKey.isStrong(preset, .admin) else {
                throw ConfigurationError(
                    "NOTIBASE_ADMIN_KEY must be as strong as a generated key: nb_admin_ and 32 random bytes in base64url (43 characters), such as nb_admin_$(openssl rand 32 | basenc --base64url | tr -d =); start without it once to have one generated")
            }
            let hash = try APIKey.hash(preset)
            if try await !store.insertSettingIfAbsent(settingName, hash) {
                try await store.replaceSetting(settingName, hash)
            }
            return (hash, nil)
        }
        if let stored = try await store.setting(settingName) { return (stored, nil) }
        let key = try APIKey.generate(.admin)
        let hash = try APIKey.hash(key)
        guard try await store.insertSettingIfAbsent(settingName, hash) else {
            // Another node stored its key first: that one is the admin key, and it shows it.
            guard let stored = try await store.setting(settingName) else { throw ConfigurationError("the admin key could not be stored") }
            return (stored, nil)
        }
        return (hash, key)
    }

    /// Makes a new admin key for the database `configuration` names (which must exist), replaces
    /// the stored one with it and returns it, to be shown once. A running server keeps the key it
    /// read at its start until it is restarted: every node on the database must be.
    package static func rotateAdminKey(_ configuration: ServerConfiguration) async throws -> String {
        if configuration.databaseURL == nil {
            let path = configuration.dataDirectory + "/notibase.sqlite"
            guard FileManager.default.fileExists(atPath: path) else {
                throw ConfigurationError("there is no database at \(path): name the server's data directory (--data-dir, NOTIBASE_DATA_DIR) or its database (--database)")
            }
        }
        let store = try await openStorage(configuration, logger: nil)
        do {
            let key = try APIKey.generate(.admin)
            try await store.replaceSetting(settingName, try APIKey.hash(key))
            try await store.close()
            return key
        } catch {
            try? await store.close()
            throw error
        }
    }
}
