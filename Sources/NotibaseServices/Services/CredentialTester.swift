package import NotibaseDelivery
import Foundation
import NotibaseCore
package import NotibaseSenders
import Synchronization
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Asks APNs or FCM whether an app's credentials work, with a push that delivers nothing
/// (``CredentialTest``): on upload, in the background, and on demand (docs/decisions/0046).
///
/// The result is stored with the credentials, keyed by their sealed bytes, so a test of replaced
/// credentials never marks the new ones. Not a delivery: nothing is written to the log or the
/// devices, no webhook event, no send metric; only `notibase_credentials_test_total`. Bounded per
/// app (``perAppPerMinute``), and one test at a time per app and provider: a request while one
/// runs for the same credentials waits for it.
package actor CredentialTester {
    /// The most tests started per app in a minute (uploads and on-demand alike).
    package static let perAppPerMinute = 6
    /// How long the on-demand route waits for the provider's answer.
    package static let answerWait = Duration.seconds(10)

    /// What a request to test found.
    package enum Start {
        /// The test runs (just started, or already running for these credentials).
        case running(CredentialTestResult, Task<CredentialTestResult, Never>)
        /// The app started ``perAppPerMinute`` tests in the last minute: try again after this many seconds.
        case tooMany(retryAfter: Int)
        /// The app has no credentials for the provider.
        case none
    }

    private let store: any AppsStore & CredentialsStore
    private let box: SecretBox
    private let senders: SenderSet
    private let clock: WallClock
    private let logger: Logger
    private let metrics: Metrics
    /// Which APNs environments the app's pushes went to.
    private let monitor: CredentialMonitor
    /// The test running for each app and provider, with the sealed bytes it tests.
    private var running: [String: (sealed: [UInt8], shown: CredentialTestResult, task: Task<CredentialTestResult, Never>)] = [:]
    /// When each app's tests of the last minute started.
    private var started: [String: [Int]] = [:]

    package init(store: any AppsStore & CredentialsStore, box: SecretBox, senders: SenderSet, clock: WallClock, logger: Logger, metrics: Metrics, monitor: CredentialMonitor) {
        self.monitor = monitor
        self.store = store
        self.box = box
        self.senders = senders
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
    }

    /// Starts a test of the app's stored credentials for `provider` (`apns`, `fcm`), or joins the
    /// one running for them.
    package func start(appID: String, provider: String) async throws -> Start {
        guard let record = try await store.credentials(appID: appID).first(where: { $0.provider == provider }) else { return .none }
        let key = appID + " " + provider
        if let current = running[key], current.sealed == record.sealed { return .running(current.shown, current.task) }
        let now = clock.milliseconds()
        let recent = (started[appID] ?? []).filter { now - $0 < 60_000 }
        guard recent.count < Self.perAppPerMinute else {
            started[appID] = recent
            return .tooMany(retryAfter: max(1, (60_000 - (now - recent.min()!) + 999) / 1000))
        }
        started[appID] = recent + [now]
        let testing = CredentialTestResult.testing(at: now)
        guard try await store.recordCredentialTest(appID: appID, provider: provider, sealed: record.sealed, try StoredJSON.encode(testing)) else {
            return .none  // replaced or deleted meanwhile
        }
        // Another request may have started one for these credentials while this one awaited the store.
        if let current = running[key], current.sealed == record.sealed { return .running(current.shown, current.task) }
        let task = Task { await self.run(appID: appID, provider: provider, sealed: record.sealed, startedAt: now) }
        running[key] = (record.sealed, testing, task)
        return .running(testing, task)
    }

    /// The task's result when it comes within `limit`, else nil (the test goes on).
    package static func result(of task: Task<CredentialTestResult, Never>, within limit: Duration) async -> CredentialTestResult? {
        let once = Once()
        return await withCheckedContinuation { continuation in
            let timer = Task {
                try? await Task.sleep(for: limit)
                if once.claim() { continuation.resume(returning: nil) }
            }
            Task {
                let result = await task.value
                timer.cancel()
                if once.claim() { continuation.resume(returning: result) }
            }
        }
    }

    private func run(appID: String, provider: String, sealed: [UInt8], startedAt: Int) async -> CredentialTestResult {
        let verdicts = await verdicts(appID: appID, provider: provider, sealed: sealed)
        let result = CredentialTestResult.finished(verdicts, startedAt: startedAt, at: clock.milliseconds())
        metrics.recordCredentialTest(provider: provider, result: result.state.rawValue)
        var fields: [String: Logger.Value] = ["appId": .string(appID), "provider": .string(provider), "state": .string(result.state.rawValue)]
        if let reason = result.reason { fields["reason"] = .string(reason) }
        if result.state == .rejected {
            logger.warning("credentials test: the provider refuses them; fix them before the first push", fields)
        } else {
            logger.info("credentials tested", fields)
        }
        do {
            if let text = try? StoredJSON.encode(result), try await !store.recordCredentialTest(appID: appID, provider: provider, sealed: sealed, text) {
                logger.info("credentials test result dropped: the credentials were replaced or deleted meanwhile", ["appId": .string(appID), "provider": .string(provider)])
            }
        } catch {
            logger.error("could not store the credentials test's result", ["appId": .string(appID), "provider": .string(provider), "error": .string("\(error)")])
        }
        let key = appID + " " + provider
        if running[key]?.sealed == sealed { running[key] = nil }
        return result
    }

    /// The provider's verdict in each environment the app uses (APNs), or for its project (FCM).
    private func verdicts(appID: String, provider: String, sealed: [UInt8]) async -> [(environment: String?, verdict: CredentialVerdict)] {
        guard let credentials = await open(appID: appID, provider: provider, sealed: sealed) else {
            return [(nil, CredentialVerdict(state: .unreachable, reason: "not readable", fix: "the credentials were replaced meanwhile, or do not open with this server's secret key: upload them again"))]
        }
        switch credentials {
        case .apns(let apns):
            // The credentials' own, and any other this node's workers sent the app's pushes to (a
            // read of the app's devices would be bounded by the app, not by what it returns).
            let used = await monitor.environments(of: appID)
            let environments = [apns.environment] + APNsEnvironment.allCases.filter { $0 != apns.environment && used.contains($0) }
            let pushes = environments.map { CredentialTest.push(credentials.forDevice(apnsEnvironment: $0)) }
            let outcomes = await senders.sender(for: .ios).send(pushes)
            return zip(environments, outcomes).map { ($0.rawValue, CredentialTest.verdict(of: $1)) }
        case .fcm:
            let outcomes = await senders.sender(for: .android).send([CredentialTest.push(credentials)])
            return outcomes.map { (nil, CredentialTest.verdict(of: $0)) }
        }
    }

    /// The tested credentials, opened as the workers open them, at the app's revision (so the test
    /// shares the workers' connections and tokens, which the senders key by revision). The
    /// revision is read before checking that the credentials are still these: sealed bytes are
    /// never stored twice, so they were the app's at that revision, and no sender is ever handed
    /// other credentials for it. Nil when they were replaced meanwhile (the result would be dropped).
    private func open(appID: String, provider: String, sealed: [UInt8]) async -> ProviderCredentials? {
        guard let plaintext = try? box.open(sealed, context: "\(provider):\(appID)"),
              let revision = try? await store.app(appID)?.credentialsRevision,
              (try? await store.credentials(appID: appID))?.contains(where: { $0.provider == provider && $0.sealed == sealed }) == true else { return nil }
        let decoder = JSONDecoder()
        switch provider {
        case "apns": return try? decoder.decode(StoredAPNsCredentials.self, from: Data(plaintext)).credentials(appID: appID, revision: revision)
        case "fcm": return try? decoder.decode(StoredFCMCredentials.self, from: Data(plaintext)).credentials(appID: appID, revision: revision)
        default: return nil
        }
    }
}

/// A flag that one caller claims (the first): who resumes a continuation.
private final class Once: Sendable {
    private let claimed = Mutex(false)

    package func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
