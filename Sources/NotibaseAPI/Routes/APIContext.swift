import Foundation
import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseHTTP
package import NotibaseWebhooks
package import NotibaseServices

/// What every API handler uses: the services (docs/decisions/0033), keys, limits, the signer,
/// metrics and logs. Built by `ServerParts.make` in NotibaseServer. This target cannot see a
/// store nor the delivery loops (Package.swift): a route reaches the store only through a service,
/// which holds the roles of it that it uses (NotibaseStore/Roles).
package final class APIContext: Sendable {
    package let auth: Authenticator
    package let limiter: RateLimiter
    package let signer: Signer
    package let metrics: Metrics
    package let logger: Logger
    package let clock: WallClock
    package let limits: ServiceLimits
    /// What `POST /v1/preview` asks about iOS, when the server was given one.
    package let doctor: (any PayloadDoctor)?
    /// The SHA-256 of the token `/metrics` needs, when it needs one.
    package let metricsTokenHash: [UInt8]?
    /// Sends, reads and cancels messages; the delivery log and the funnel.
    package let messages: MessageService
    /// Applies the receipts devices post.
    package let receipts: ReceiptService
    /// Apps, their keys and credentials.
    package let apps: AppService
    /// Forgets users.
    package let users: UserService
    /// What checks a webhook endpoint's URL at registration (and sends to it).
    package let webhookTransport: any WebhookTransport
    /// The app's webhook endpoints.
    package let webhooks: WebhookService
    /// Registrations (their group commit) and sign-outs.
    package let devices: DeviceService
    /// The Live Activity registry: the SDKs' reports, an activity's devices.
    package let liveActivities: LiveActivityService
    /// The trial settings the server runs with (``TrialSetting``), for `/healthz` and the
    /// webhook URL refusals.
    package let trial: [TrialSetting]
    /// Asks the providers about uploaded credentials; nil when the senders need none (`--sender
    /// accept`, the demo's simulated devices): nothing to test then.
    package let credentialTests: CredentialTester?

    /// The context of built services: ``ServerParts`` builds them over the store (this target
    /// sees none).
    package init(
        auth: Authenticator, limiter: RateLimiter, signer: Signer, metrics: Metrics, logger: Logger, clock: WallClock, limits: ServiceLimits,
        services: Services, doctor: (any PayloadDoctor)? = nil, metricsTokenHash: [UInt8]? = nil, webhookTransport: (any WebhookTransport)? = nil,
        trial: [TrialSetting] = [], credentialTests: CredentialTester? = nil
    ) {
        self.trial = trial
        self.credentialTests = credentialTests
        self.webhookTransport = webhookTransport ?? UnconnectedWebhookTransport()
        messages = services.messages
        receipts = services.receipts
        apps = services.apps
        users = services.users
        devices = services.devices
        webhooks = services.webhooks
        liveActivities = services.liveActivities
        self.metricsTokenHash = metricsTokenHash
        self.auth = auth
        self.limiter = limiter
        self.signer = signer
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
        self.limits = limits
        self.doctor = doctor
    }

    /// The services a context's routes call.
    package struct Services: Sendable {
        package var messages: MessageService
        package var receipts: ReceiptService
        package var apps: AppService
        package var users: UserService
        package var devices: DeviceService
        package var webhooks: WebhookService
        package var liveActivities: LiveActivityService

        package init(
            messages: MessageService, receipts: ReceiptService, apps: AppService, users: UserService, devices: DeviceService, webhooks: WebhookService,
            liveActivities: LiveActivityService
        ) {
            self.messages = messages
            self.receipts = receipts
            self.apps = apps
            self.users = users
            self.devices = devices
            self.webhooks = webhooks
            self.liveActivities = liveActivities
        }
    }

    /// Authenticates and rate-limits a request.
    package func caller(_ request: HTTPRequest, _ allowed: Set<KeyKind>) async throws -> Caller {
        let caller = try await auth.authenticate(authorization: request.header("authorization"), allowed: allowed)
        try limiter.admit(caller, from: request.client)
        return caller
    }

    /// The app of an app key (server or client).
    package func appID(_ request: HTTPRequest, _ allowed: Set<KeyKind> = [.server]) async throws -> String {
        try Self.appID(of: try await caller(request, allowed))
    }

    /// The caller of an app key without waiting, for quick handlers: nil when the key must be
    /// looked up in the store (nothing is counted against the rate limit then).
    package func cachedAppCaller(_ request: HTTPRequest, _ allowed: Set<KeyKind>) throws -> Caller? {
        guard let caller = try auth.cachedCaller(authorization: request.header("authorization"), allowed: allowed) else { return nil }
        try limiter.admit(caller, from: request.client)
        _ = try Self.appID(of: caller)
        return caller
    }

    package static func appID(of caller: Caller) throws -> String {
        guard let appID = caller.appID else { throw APIError(status: 403, code: "key_not_allowed", message: "use one of the app's keys", field: nil) }
        return appID
    }
}

/// Paging through lists: `limit` (1–1000, default 100), a `cursor` from `nextCursor` (digits;
/// treat them as opaque; pass the same `order` with it), `order` (`oldest` or `newest` first, the
/// list's own when not given) and `total=true` (the answer says how many the list holds).
package struct Page {
    package var limit: Int
    package var order: ListOrder
    package var cursor: Int?
    package var wantsTotal: Bool

    package init(_ request: HTTPRequest, order defaultOrder: ListOrder = .oldest) throws {
        if let text = request.query["limit"] {
            guard let limit = Int(text), (1...1000).contains(limit) else { throw APIError.invalid("limit", "must be a whole number from 1 to 1000") }
            self.limit = limit
        } else {
            limit = 100
        }
        if let text = request.query["order"] {
            guard let order = ListOrder(rawValue: text) else { throw APIError.invalid("order", "must be oldest or newest") }
            self.order = order
        } else {
            order = defaultOrder
        }
        if let cursor = request.query["cursor"], !cursor.isEmpty {
            guard cursor.utf8.count <= 18, cursor.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seq = Int(cursor) else {
                throw APIError.invalid("cursor", "is not a cursor this server gave; pass nextCursor from the previous page unchanged")
            }
            self.cursor = seq
        }
        switch request.query["total"] {
        case nil, "false": wantsTotal = false
        case "true": wantsTotal = true
        default: throw APIError.invalid("total", "must be true or false")
        }
    }

    /// The page the store reads.
    package var seqPage: SeqPage { SeqPage(order: order, cursor: cursor, limit: limit) }

    /// The cursor for the page after one that ended at `seq`, if the page was full.
    package func next(count: Int, lastSeq: Int?) -> String? {
        guard count == limit, let lastSeq else { return nil }
        return String(lastSeq)
    }
}

/// A page of results.
package struct ListBody<Item: Encodable>: Encodable {
    package var items: [Item]
    package var nextCursor: String?
    /// How many the list holds (with its filters), when asked with `total=true`.
    package var total: Int?
}
