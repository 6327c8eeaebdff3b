import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Keeps each app's credential health (``CredentialHealth``) from what the providers answer the
/// workers, and what the API shows of it.
///
/// Not a write per delivery: a batch's outcomes for one app and provider are one observation,
/// stored at once when the state changes (`ok`, `failing`) and otherwise at most every
/// ``writeInterval``, so a stored time lags the last outcome by at most that. A change of state
/// is logged at warning level (failing, recovered), with the provider's reason and nothing secret.
/// Each node keeps its own view; the stored one is the last node's word.
package actor CredentialMonitor {
    /// Milliseconds between two writes of an unchanged state, per app and provider.
    package static let writeInterval = 5_000

    private struct Tracked {
        package var revision: Int
        package var health: CredentialHealth
        package var writtenAt: Int
    }

    private struct Snapshot {
        package var revision: Int
        package var readAt: Int
        package var health: [String: CredentialHealth]
    }

    private let store: any CredentialsStore
    private let logger: Logger
    private let clock: WallClock
    /// This node's view, by app ID and provider.
    private var tracked: [String: Tracked] = [:]
    /// What the store said of each app's credentials, for sends (read again when the app's
    /// credentials change, or after ``writeInterval``).
    private var snapshots: [String: Snapshot] = [:]

    package init(store: any CredentialsStore, logger: Logger, clock: WallClock) {
        self.store = store
        self.logger = logger
        self.clock = clock
    }

    /// One batch's outcomes with an app's credentials (of `revision`) for `provider`: whether the
    /// provider accepted a push, and why it refused the credentials when it did.
    package func observe(appID: String, provider: String, revision: Int, succeeded: Bool, failureReason: String?) async {
        guard succeeded || failureReason != nil else { return }
        let key = appID + " " + provider
        if tracked[key]?.revision != revision {
            let stored: CredentialRecord?
            do {
                stored = try await store.credentials(appID: appID).first { $0.provider == provider }
            } catch {
                logger.error("could not read the credentials' health", ["appId": .string(appID), "provider": .string(provider), "error": .string("\(error)")])
                return
            }
            guard let stored else { return }  // deleted since
            // Another batch may have read them meanwhile: its view stands.
            if tracked[key]?.revision != revision { tracked[key] = Tracked(revision: revision, health: stored.health, writtenAt: 0) }
        }
        guard var entry = tracked[key] else { return }
        let now = clock.milliseconds()
        let before = entry.health.state
        entry.health = entry.health.after(succeeded: succeeded, failureReason: failureReason, now: now)
        let changed = entry.health.state != before
        let write = changed || now - entry.writtenAt >= Self.writeInterval
        if write { entry.writtenAt = now }
        tracked[key] = entry
        if changed { log(appID: appID, provider: provider, from: before, to: entry.health) }
        guard write else { return }
        if var snapshot = snapshots[appID], snapshot.revision == revision {
            snapshot.health[provider] = entry.health
            snapshots[appID] = snapshot
        }
        do {
            if try await !store.recordCredentialHealth(appID: appID, provider: provider, revision: revision, entry.health) {
                tracked[key] = nil  // replaced or deleted since: the next batch reads the new ones
            }
        } catch {
            logger.error("could not store the credentials' health", ["appId": .string(appID), "provider": .string(provider), "error": .string("\(error)")])
        }
    }

    /// The APNs environments this node's workers sent each app's pushes to since it started.
    private var environments: [String: Set<APNsEnvironment>] = [:]

    /// A batch sent pushes of `appID` to these APNs environments.
    package func sentTo(_ used: Set<APNsEnvironment>, appID: String) {
        guard !used.isSubset(of: environments[appID] ?? []) else { return }
        environments[appID, default: []].formUnion(used)
    }

    /// The APNs environments this node has sent `appID`'s pushes to (what its devices use), for
    /// the credential test (``CredentialTester``).
    package func environments(of appID: String) -> Set<APNsEnvironment> {
        environments[appID] ?? []
    }

    /// The health of each provider `app` has credentials for (a provider without any is absent).
    package func health(of app: AppRecord) async throws -> [String: CredentialHealth] {
        let now = clock.milliseconds()
        var snapshot: Snapshot
        if let known = snapshots[app.id], known.revision == app.credentialsRevision, now - known.readAt < Self.writeInterval {
            snapshot = known
        } else {
            let records = try await store.credentials(appID: app.id)
            snapshot = Snapshot(revision: app.credentialsRevision, readAt: now, health: Dictionary(records.map { ($0.provider, $0.health) }) { a, _ in a })
            snapshots[app.id] = snapshot
        }
        for provider in snapshot.health.keys {
            if let mine = tracked[app.id + " " + provider], mine.revision == snapshot.revision { snapshot.health[provider] = mine.health }
        }
        return snapshot.health
    }

    private func log(appID: String, provider: String, from before: CredentialHealth.State, to health: CredentialHealth) {
        var fields: [String: Logger.Value] = ["appId": .string(appID), "provider": .string(provider)]
        switch health.state {
        case .failing:
            fields["reason"] = .string(health.lastFailureReason ?? "")
            logger.warning("credentials failing: the provider refuses them and deliveries wait; upload working ones", fields)
        case .ok where before == .failing:
            logger.warning("credentials recovered: the provider accepts them again", fields)
        case .ok, .untested:
            logger.info("credentials work: the provider accepted a push", fields)
        }
    }
}
