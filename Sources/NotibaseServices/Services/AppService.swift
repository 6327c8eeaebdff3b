import Foundation
import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Apps: creating one with its keys, its settings, rotating a key, deleting it, and its provider
/// credentials (sealed at rest) with their health. `AppsAPI` checks the caller and the uploaded
/// credentials first (docs/decisions/0033).
package struct AppService: Sendable {
    let store: any AppsStore & CredentialsStore
    /// Forgets the keys it resolved whenever an app's keys or settings change.
    package let auth: Authenticator
    package let box: SecretBox
    package let clock: WallClock
    package let logger: Logger

    /// A new app with `settings` (its name given), and its two keys: shown once, stored hashed.
    package func create(_ settings: AppSettingsChange, name: String) async throws -> (app: AppRecord, serverKey: String, clientKey: String) {
        let serverKey = try APIKey.generate(.server)
        let clientKey = try APIKey.generate(.client)
        let now = clock.milliseconds()
        var app = try await store.createApp(
            id: Identifier.make(milliseconds: now), name: name, serverKeyHash: APIKey.hash(serverKey), clientKeyHash: APIKey.hash(clientKey),
            requireIdentityVerification: settings.requireIdentityVerification ?? true, now: now)
        if let pacing = settings.pacing(changing: app.pacing) {
            app = try await store.updateApp(app.id, name: nil, requireIdentityVerification: nil, pacing: pacing) ?? app
        }
        logger.info("app created", ["appId": .string(app.id)])
        return (app, serverKey, clientKey)
    }

    /// Every app, or only `appID` when given (a server key sees its own).
    package func apps(only appID: String?) async throws -> [AppRecord] {
        if let appID { return try await store.app(appID).map { [$0] } ?? [] }
        return try await store.apps()
    }

    package func app(_ id: String) async throws -> AppRecord? {
        try await store.app(id)
    }

    /// `app` with `settings` changed (the others as they were); nil when it is gone.
    package func update(_ app: AppRecord, _ settings: AppSettingsChange) async throws -> AppRecord? {
        guard let updated = try await store.updateApp(
            app.id, name: settings.name, requireIdentityVerification: settings.requireIdentityVerification, pacing: settings.pacing(changing: app.pacing)) else {
            return nil
        }
        // Keys resolved before carry the old setting: from now on every request reads the new one.
        auth.invalidate()
        logger.info("app updated", ["appId": .string(app.id)])
        return updated
    }

    /// Deletes an app and all it holds; false when there was none.
    package func delete(_ id: String) async throws -> Bool {
        guard try await store.deleteApp(id) else { return false }
        auth.invalidate()
        logger.info("app deleted", ["appId": .string(id)])
        return true
    }

    /// A new key of `kind` for the app, replacing the old one at once; nil when the app is gone.
    package func rotateKey(of app: AppRecord, _ kind: KeyKind) async throws -> String? {
        let key = try APIKey.generate(kind)
        guard try await store.replaceKey(appID: app.id, kind: kind, hash: APIKey.hash(key)) else { return nil }
        auth.invalidate()
        logger.info("key rotated", ["appId": .string(app.id), "kind": .string(kind.rawValue)])
        return key
    }

    /// Stores checked credentials sealed with the server's secret, beside their `summary` (nothing
    /// secret); returns when.
    package func storeCredentials(_ credentials: some Encodable, provider: String, summary: [String: String], app: AppRecord) async throws -> Int {
        let plaintext = try JSON.encoder().encode(credentials)
        let sealed = try box.seal(Array(plaintext), context: "\(provider):\(app.id)")
        let now = clock.milliseconds()
        try await store.putCredentials(appID: app.id, provider: provider, sealed: sealed, summary: JSON.text(summary), now: now)
        auth.invalidate()  // the app's credentials' revision changed
        logger.info("credentials stored", ["appId": .string(app.id), "provider": .string(provider)])
        return now
    }

    /// Removes a provider's credentials; none stored is the state asked for.
    package func deleteCredentials(of app: AppRecord, provider: String) async throws {
        _ = try await store.deleteCredentials(appID: app.id, provider: provider)
        auth.invalidate()  // the app's credentials' revision changed
    }

    /// The app's credentials: each provider's summary and health.
    package func credentials(of app: AppRecord) async throws -> [CredentialRecord] {
        try await store.credentials(appID: app.id)
    }

    package init(store: any AppsStore & CredentialsStore, auth: Authenticator, box: SecretBox, clock: WallClock, logger: Logger) {
        self.store = store
        self.auth = auth
        self.box = box
        self.clock = clock
        self.logger = logger
    }
}
