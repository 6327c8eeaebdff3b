import Foundation
import NotibaseCore
import NotibaseSenders

/// Opens an app's sealed provider credentials for the workers, and keeps them while the app's
/// credentials revision is unchanged.
actor CredentialVault {
    private let store: any Storage
    private let box: SecretBox
    private var cache: [String: (revision: Int, credentials: [Platform: ProviderCredentials])] = [:]

    init(store: any Storage, box: SecretBox) {
        self.store = store
        self.box = box
    }

    /// The credentials of an app for a platform, or nil when it has none (or they do not open
    /// with this server's secret key).
    func credentials(appID: String, platform: Platform) async throws -> ProviderCredentials? {
        guard let app = try await store.app(appID) else { return nil }
        if let cached = cache[appID], cached.revision == app.credentialsRevision {
            return cached.credentials[platform]
        }
        var opened: [Platform: ProviderCredentials] = [:]
        for record in try await store.credentials(appID: appID) {
            guard let plaintext = box.open(record.sealed, context: "\(record.provider):\(appID)") else { continue }
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
        return opened[platform]
    }
}
