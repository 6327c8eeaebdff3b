import Foundation
package import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Opens an app's sealed provider credentials for the workers, and keeps them while the app's
/// credentials revision is unchanged.
package actor CredentialVault {
    private let store: any AppsStore & CredentialsStore
    private let box: SecretBox
    private var cache: [String: (revision: Int, credentials: [Platform: ProviderCredentials])] = [:]
    /// How many times it has read an app from the store (the workers ask once per app per batch).
    package private(set) var lookups = 0
    /// When each app's APNs certificate expires, and when this node last warned about it.
    private var certificates: [String: (expiresAt: Int, warnedAt: Int?)] = [:]
    private let clock: WallClock
    private let logger: Logger

    package init(store: any AppsStore & CredentialsStore, box: SecretBox, clock: WallClock = .system, logger: Logger = .silent) {
        self.store = store
        self.box = box
        self.clock = clock
        self.logger = logger
    }

    /// The credentials of an app for a platform, or nil when it has none (or they do not open
    /// with this server's secret key).
    package func credentials(appID: String, platform: Platform) async throws -> ProviderCredentials? {
        try await credentials(appID: appID)[platform]
    }

    /// The credentials of an app for each platform it has them for.
    package func credentials(appID: String) async throws -> [Platform: ProviderCredentials] {
        lookups += 1
        guard let app = try await store.app(appID) else { return [:] }
        if let cached = cache[appID], cached.revision == app.credentialsRevision {
            warnOfExpiry(appID: appID)
            return cached.credentials
        }
        certificates[appID] = nil
        var opened: [Platform: ProviderCredentials] = [:]
        for record in try await store.credentials(appID: appID) {
            // Not sealed with this server's key and for this app (a restored backup, a copied row): skipped.
            guard let plaintext = try? box.open(record.sealed, context: "\(record.provider):\(appID)") else { continue }
            let decoder = JSONDecoder()
            switch record.provider {
            case "apns":
                let stored = try? decoder.decode(StoredAPNsCredentials.self, from: Data(plaintext))
                opened[.ios] = stored?.credentials(appID: appID, revision: app.credentialsRevision)
                if let certificate = stored?.certificate { certificates[appID] = (certificate.expiresAt, nil) }
            case "fcm":
                opened[.android] = try? decoder.decode(StoredFCMCredentials.self, from: Data(plaintext)).credentials(appID: appID, revision: app.credentialsRevision)
            default:
                continue
            }
        }
        cache[appID] = (app.credentialsRevision, opened)
        warnOfExpiry(appID: appID)
        return opened
    }

    /// A warning, at most once a day per app on this node, while an app sends with an APNs
    /// certificate that expires within 30 days (or has expired).
    private func warnOfExpiry(appID: String) {
        guard let certificate = certificates[appID] else { return }
        let now = clock.milliseconds()
        guard StoredAPNsCredentials.expiresSoon(certificate.expiresAt, now: now), certificate.warnedAt.map({ now - $0 >= 86_400_000 }) ?? true else { return }
        certificates[appID]?.warnedAt = now
        let message = certificate.expiresAt <= now ? "APNs certificate has expired" : "APNs certificate expires soon"
        logger.warning(message, ["appId": .string(appID), "expiresAt": .string(certificate.expiresAt.timestamp)])
    }
}
