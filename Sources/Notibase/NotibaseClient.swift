public import Foundation
import NotibaseCore
import NotibaseExtension
#if canImport(UserNotifications)
@preconcurrency public import UserNotifications
#else
@preconcurrency public import UserNotificationsShim
#endif

/// One app's connection to its Notibase server: the registration and receipt outboxes and the
/// category writer. `Notibase` holds one; tests create several (one per simulated device).
public final class NotibaseClient: Sendable {
    /// The configuration it was made with.
    public let configuration: NotibaseConfiguration

    private let connection: ServerConnection
    private let registration: RegistrationState
    private let outbox: ReceiptOutbox
    private let categories: AppCategoryWriter
    private let flusher: Flusher
    private let liveActivityOutbox: LiveActivityOutbox
    /// The attributes types observed, and the activities watched (by system ID), in this process.
    let liveActivityTypes = Locked(Set<String>())
    let watchedActivities = Locked(Set<String>())
    private let now: @Sendable () -> Date
    private let timeZone: @Sendable () -> String

    /// A client for `configuration`, using `center` for categories (`UNUserNotificationCenter.current()`).
    /// `timeZone` gives the device's time zone for its registration (the system's by default).
    public init(
        configuration: NotibaseConfiguration, center: UNUserNotificationCenter = .current(), now: @escaping @Sendable () -> Date = Date.init,
        timeZone: @escaping @Sendable () -> String = { TimeZone.current.identifier }
    ) {
        self.configuration = configuration
        self.now = now
        self.timeZone = timeZone
        connection = ServerConnection(serverURL: configuration.serverURL, clientKey: configuration.clientKey)
        registration = RegistrationState(directory: configuration.stateDirectory)
        outbox = ReceiptOutbox(shared: configuration.sharedDirectory ?? configuration.stateDirectory)
        categories = AppCategoryWriter(
            center: center, sharedDirectory: configuration.sharedDirectory, readTimeout: configuration.categoryReadTimeout)
        liveActivityOutbox = LiveActivityOutbox(directory: configuration.stateDirectory)
        flusher = Flusher(initialDelay: configuration.initialRetryDelay, maximumDelay: configuration.maximumRetryDelay)
    }

    /// Sends what earlier launches (and the extension) left unsent.
    public func start() {
        flush()
    }

    // MARK: Registration

    /// Queues the registration of `token` (replacing the previously registered token, if any).
    public func registerDeviceToken(_ token: Data) {
        updateRegistration { $0.token = DeviceRegistrationRequest.hex(token) }
    }

    /// Queues the external user ID for the registration, with the identity token your backend got
    /// for it from `POST /v1/identity-tokens` (apps that require identity verification, the
    /// default, ignore a user ID sent without it). The token is sent only to the server.
    ///
    /// `nil` signs the user out: the server is told to clear the device's user at once
    /// (`POST /v1/devices/sign-out`, retried until it lands, before any registration queued after
    /// it), and from its answer on no message addressed to that user reaches this device.
    public func setExternalUserID(_ id: String?, token: String? = nil) {
        // The token the server knows the device by (the one it accepted, else the one on its way).
        let registered = [registration.sent?.token, registration.pending?.token].compactMap { $0 }.first { !$0.isEmpty }
        if id == nil, let registered {
            registration.setPendingSignOut(DeviceSignOutRequest(platform: .ios, token: registered))
        }
        updateRegistration {
            $0.externalUserId = id
            $0.externalUserIdToken = id == nil ? nil : token
        }
        if id == nil, registered != nil { flush() }
    }

    /// Queues the tags for the registration.
    public func setTags(_ tags: Set<String>) {
        updateRegistration { $0.tags = tags.sorted() }
    }

    private func updateRegistration(_ change: (inout DeviceRegistrationRequest) -> Void) {
        let sent = registration.sent
        var next = registration.pending ?? sent ?? DeviceRegistrationRequest(platform: .ios, token: "")
        change(&next)
        next.locale = DeviceRegistrationRequest.currentLocale
        next.timeZone = timeZone()
        next.appVersion = configuration.appVersion
        next.sdkVersion = NotibaseConfiguration.sdkVersion
        next.apnsEnvironment = configuration.pushEnvironment?.rawValue
        if let sent, !sent.token.isEmpty, sent.token != next.token {
            next.previousToken = sent.token
        }
        guard !next.token.isEmpty else {
            // No token yet: keep the attributes; they go with the token when it comes.
            registration.setPending(next)
            return
        }
        if next == sent { return }
        registration.setPending(next)
        flush()
    }

    /// The registration the server has accepted, if any.
    public var registeredToken: String? {
        registration.sent?.token
    }

    /// Whether a registration is waiting to be sent.
    public var hasPendingRegistration: Bool {
        registration.pending.map { !$0.token.isEmpty } ?? false
    }

    /// Whether a sign-out (``setExternalUserID(_:token:)`` with `nil`) is waiting to be sent.
    public var hasPendingSignOut: Bool {
        registration.pendingSignOut != nil
    }

    // MARK: Responses

    /// Reports what the user did (opened, tapped a button, dismissed) and returns where to go.
    @discardableResult
    public func handle(_ response: UNNotificationResponse) -> URL? {
        let content = response.notification.request.content
        let payload = NotificationPayload(userInfo: content.userInfo)
        let action = response.actionIdentifier
        let typed = (response as? UNTextInputNotificationResponse)?.userText
        let (receipts, destination) = ResponseInterpreter.interpret(
            payload: payload, actionIdentifier: action, typedText: typed, at: now())
        for receipt in receipts { outbox.add(receipt) }
        if !receipts.isEmpty { flush() }
        return destination
    }

    /// Reports a silent background push as `received` (see `Notibase.handleBackgroundPush(_:)`);
    /// false, and nothing reported, for any other payload.
    @discardableResult
    public func handleBackgroundPush(_ userInfo: [AnyHashable: Any]) -> Bool {
        let payload = NotificationPayload(userInfo: userInfo)
        guard payload.isBackground, let deliveryID = payload.deliveryID else { return false }
        outbox.add(Receipt(
            id: UUID().uuidString.lowercased(), deliveryID: deliveryID, messageID: payload.messageID, event: .received,
            occurredAt: now(), signature: payload.receiptSignature))
        flush()
        return true
    }

    // MARK: Live Activities

    /// Queues a Live Activity report (sent once the device's registration is accepted).
    func report(_ report: LiveActivityReport) {
        if liveActivityOutbox.add(report) { flush() }
    }

    /// Whether Live Activity reports are waiting to be sent.
    public var hasPendingLiveActivityReports: Bool {
        !liveActivityOutbox.pending.isEmpty
    }

    /// One attempt at the queued reports, in order; false when one must be tried again later.
    /// Without an accepted registration they wait for it (registering sends them).
    private func sendLiveActivityReports() async -> Bool {
        guard let deviceToken = registration.sent?.token, !deviceToken.isEmpty else { return true }
        for queued in liveActivityOutbox.pending {
            var report = queued.report
            report.deviceToken = deviceToken
            guard let body = try? JSONEncoder().encode(report) else {
                liveActivityOutbox.remove(queued.id)
                continue
            }
            switch await connection.post("v1/live-activity-reports", body: body) {
            case .accepted:
                liveActivityOutbox.remove(queued.id)
            case .rejected(let status, _):
                // Refused as it is (a revoked key, an unknown device): it would be refused forever.
                SDKLog.error("the server refused a Live Activity report (\(report.kind.rawValue), HTTP \(status)); it is dropped")
                liveActivityOutbox.remove(queued.id)
            case .retryLater:
                return false
            }
        }
        return true
    }

    // MARK: Categories

    /// Registers the app's own categories alongside Notibase's (see `Notibase.setAppCategories`).
    public func setAppCategories(_ categories: Set<UNNotificationCategory>) async throws {
        try await self.categories.set(categories)
    }

    // MARK: Sending

    /// Sends the pending registration and receipts now (retrying with backoff in the background
    /// when the server cannot be reached). Returns after this attempt.
    @discardableResult
    public func flushNow() async -> Bool {
        await sendPending()
    }

    private func flush() {
        let client = self
        flusher.kick { await client.sendPending() }
    }

    /// One attempt at everything pending; true when nothing is left.
    private func sendPending() async -> Bool {
        // The sign-out first: a registration queued after it (a new user signing in) must land
        // after it, or the device would end signed out.
        if let signOut = registration.pendingSignOut, await !send(signOut) { return false }
        if let pending = registration.pending, !pending.token.isEmpty, await !send(pending) { return false }
        let poster = HTTPReceiptPoster(endpoint: ReceiptEndpoint(serverURL: configuration.serverURL, clientKey: configuration.clientKey))
        _ = await outbox.flush(with: poster)
        let reportsSent = await sendLiveActivityReports()
        return outbox.pending().isEmpty && !hasPendingRegistration && !hasPendingSignOut && reportsSent
    }

    /// One attempt at a sign-out; false when it must be tried again later.
    private func send(_ signOut: DeviceSignOutRequest) async -> Bool {
        guard let body = try? JSONEncoder().encode(signOut) else { return false }
        switch await connection.post("v1/devices/sign-out", body: body) {
        case .accepted, .rejected:
            // A refusal (a revoked key) would be refused forever.
            registration.markSignedOut(signOut)
            return true
        case .retryLater:
            return false
        }
    }

    /// One attempt at a registration; false when it must be tried again later.
    private func send(_ pending: DeviceRegistrationRequest) async -> Bool {
        guard let body = try? JSONEncoder().encode(pending) else { return false }
        switch await connection.post("v1/devices", body: body) {
        case .accepted:
            registration.markSent(pending)
        case .rejected(_, let answer):
            if pending.timeZone != nil, RejectedField(answer)?.name == "timeZone" {
                // A zone this server's time-zone database does not know (one newer than its
                // copy, say): without it the device still gets every push, and sends at a local
                // time use the message's fallback zone for it. Never the reason for no pushes.
                var withoutZone = pending
                withoutZone.timeZone = nil
                registration.setPending(withoutZone)
                return await send(withoutZone)
            }
            // The server will never take it as it is (a revoked key, an invalid token): keeping
            // it would retry forever.
            registration.markSent(pending)
        case .retryLater:
            return false
        }
        return true
    }
}

/// The field a 4xx answer names (`{"error": {"field": …}}`), when it names one.
private struct RejectedField: Decodable {
    let name: String

    init?(_ answer: Data) {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: answer) else { return nil }
        self = decoded
    }

    private struct Problem: Decodable { let field: String }
    private enum Keys: String, CodingKey { case error }

    init(from decoder: any Decoder) throws {
        name = try decoder.container(keyedBy: Keys.self).decode(Problem.self, forKey: .error).field
    }
}
