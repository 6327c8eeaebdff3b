import Foundation
import NotibaseCore
import NotibaseSenders

/// Opens an app's sealed provider credentials for the workers, and keeps them while the app's
/// credentials revision is unchanged.
actor CredentialVault {
    private let store: any Storage
    private let box: SecretBox
    private var cache: [String: (revision: Int, credentials: [Platform: ProviderCredentials])] = [:]
    /// How many times it has read an app from the store (the workers ask once per app per batch).
    private(set) var lookups = 0

    init(store: any Storage, box: SecretBox) {
        self.store = store
        self.box = box
    }

    /// The credentials of an app for a platform, or nil when it has none (or they do not open
    /// with this server's secret key).
    func credentials(appID: String, platform: Platform) async throws -> ProviderCredentials? {
        try await credentials(appID: appID)[platform]
    }

    /// The credentials of an app for each platform it has them for.
    func credentials(appID: String) async throws -> [Platform: ProviderCredentials] {
        lookups += 1
        guard let app = try await store.app(appID) else { return [:] }
        if let cached = cache[appID], cached.revision == app.credentialsRevision {
            return cached.credentials
        }
        var opened: [Platform: ProviderCredentials] = [:]
        for record in try await store.credentials(appID: appID) {
            // Not sealed with this server's key and for this app (a restored backup, a copied row): skipped.
            guard let plaintext = try? box.open(record.sealed, context: "\(record.provider):\(appID)") else { continue }
            let decoder = JSONDecoder()
            switch record.provider {
            case "apns":
                opened[.ios] = try? decoder.decode(StoredAPNsCredentials.self, from: Data(plaintext)).credentials(appID: appID, revision: app.credentialsRevision)
            case "fcm":
                opened[.android] = try? decoder.decode(StoredFCMCredentials.self, from: Data(plaintext)).credentials(appID: appID, revision: app.credentialsRevision)
            default:
                continue
            }
        }
        cache[appID] = (app.credentialsRevision, opened)
        return opened
    }
}
