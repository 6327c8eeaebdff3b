package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// An app's webhook endpoints (docs/server.md, "Webhooks"): `WebhooksAPI` checks the input and the
/// key; this makes and seals secrets and stores. An endpoint of another app is never found.
package struct WebhookService: Sendable {
    let store: any WebhookEndpointsStore
    package let box: SecretBox
    package let clock: WallClock
    package let logger: Logger
    /// The most endpoints an app may have.
    package var endpointsPerApp: Int = ServiceLimits().webhookEndpointsPerApp

    /// How long the secret a rotation replaces keeps signing beside the new one.
    package static let rotationOverlap = 24 * 3_600 * 1_000

    /// A new endpoint and its secret (shown once); nil when the app has ``endpointsPerApp`` already.
    package func create(appID: String, url: String, types: [String]?, description: String?) async throws -> (WebhookEndpointRecord, secret: String)? {
        let now = clock.milliseconds()
        let id = try Identifier.make(milliseconds: now)
        let secret = try WebhookSignature.newSecret()
        guard let record = try await store.createWebhookEndpoint(NewWebhookEndpoint(
            id: id, appID: appID, url: url, types: types, description: description, sealedSecret: try seal(secret, id), now: now,
            limit: endpointsPerApp)) else { return nil }
        logger.info("webhook endpoint created", ["appId": .string(appID), "endpointId": .string(id)])
        return (record, secret)
    }

    package func endpoints(appID: String, page: SeqPage) async throws -> [WebhookEndpointRecord] { try await store.webhookEndpoints(appID: appID, page: page) }

    package func endpoint(appID: String, id: String) async throws -> WebhookEndpointRecord? { try await store.webhookEndpoint(appID: appID, id: id) }

    package func update(appID: String, id: String, _ change: WebhookEndpointChange) async throws -> WebhookEndpointRecord? {
        try await store.updateWebhookEndpoint(appID: appID, id: id, change, now: clock.milliseconds())
    }

    package func delete(appID: String, id: String) async throws -> Bool { try await store.deleteWebhookEndpoint(appID: appID, id: id) }

    /// A new secret (shown once); the one it replaces signs beside it for ``rotationOverlap``.
    package func rotateSecret(appID: String, id: String) async throws -> (WebhookEndpointRecord, secret: String)? {
        let secret = try WebhookSignature.newSecret()
        let now = clock.milliseconds()
        guard let record = try await store.rotateWebhookSecret(
            appID: appID, id: id, sealed: try seal(secret, id), previousUntil: now + Self.rotationOverlap, now: now) else { return nil }
        logger.info("webhook secret rotated", ["appId": .string(appID), "endpointId": .string(id)])
        return (record, secret)
    }

    package func test(appID: String, id: String) async throws -> Bool { try await store.recordWebhookTest(appID: appID, id: id, now: clock.milliseconds()) }

    package func attempts(appID: String, id: String, limit: Int) async throws -> [WebhookAttemptRecord]? {
        try await store.webhookAttempts(appID: appID, id: id, limit: limit)
    }

    package func replay(appID: String, id: String, since: Int) async throws -> Int? { try await store.replayWebhookEvents(appID: appID, id: id, since: since) }

    /// Whether `milliseconds` has not come yet.
    package func isFuture(_ milliseconds: Int) -> Bool { milliseconds > clock.milliseconds() }

    private func seal(_ secret: String, _ id: String) throws -> [UInt8] {
        try box.seal(Array(secret.utf8), context: WebhookSecrets.context(id))
    }

    package init(store: any WebhookEndpointsStore, box: SecretBox, clock: WallClock, logger: Logger, endpointsPerApp: Int = ServiceLimits().webhookEndpointsPerApp) {
        self.store = store
        self.box = box
        self.clock = clock
        self.logger = logger
        self.endpointsPerApp = endpointsPerApp
    }
}
