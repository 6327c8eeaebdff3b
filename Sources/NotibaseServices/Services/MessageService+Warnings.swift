package import NotibaseCore
package import NotibaseDomain
import NotibaseDelivery
import NotibaseStore
import NotibaseWebhooks

/// What a send warns of, when a message was accepted but will not reach all of its audience: a
/// platform of the audience without credentials or with credentials its provider refuses, or an
/// audience that matches no device at all.
extension MessageService {
    /// `{"code", "message", "platform"?, "unmatched"?}`.
    package struct Warning: Encodable, Equatable {
        /// `credentials_missing`, `credentials_failing` or `audience_empty`.
        package var code: String
        package var message: String
        /// The platform it is about (credentials).
        package var platform: String?
        /// The device IDs, user IDs or tags that matched no active device (`audience_empty`).
        package var unmatched: [String]?
    }

    /// How many tags of an `allOf` audience that matched nobody are looked up one by one.
    package static let tagsLookedUp = 20
    /// How many unmatched entries a warning lists.
    package static let unmatchedListed = 100

    /// The warnings for a message just stored. `platforms` are those of the deliveries written
    /// with it when it was written whole (the one-device message: nothing more is read); nil when
    /// they are not known, and then only a platform whose credentials are missing or failing is
    /// looked up in the audience.
    package func sendWarnings(_ record: MessageRecord, app: AppRecord?, platforms: Set<Platform>?) async throws -> [Warning] {
        if record.audienceSize == 0 { return [try await emptyAudience(record)] }
        guard credentialsRequired, let app else { return [] }
        return try await credentialWarnings(app) { platform in
            if let platforms { return platforms.contains(platform) }
            guard let audience = record.audience else { return false }
            return try await store.audienceReaches(appID: app.id, audience, platform: platform)
        }
    }

    /// The warnings that hold now for a stored message (`GET /v1/messages/{messageId}`): an empty
    /// audience, and the credentials of each platform it still has deliveries to send to.
    package func currentWarnings(_ record: MessageRecord, counts: MessageCounts) async throws -> [Warning] {
        if record.audienceSize == 0 { return [try await emptyAudience(record)] }
        guard credentialsRequired, Lifecycle.unfinished.contains(record.state), let app = try await store.app(record.appID) else { return [] }
        return try await credentialWarnings(app) { platform in
            let states = counts.byPlatform[platform.rawValue] ?? [:]
            if states["queued", default: 0] + states["retrying", default: 0] > 0 { return true }
            guard Lifecycle.toFanOut.contains(record.state), let audience = record.audience else { return false }
            return try await store.audienceReaches(appID: app.id, audience, platform: platform)
        }
    }

    /// A warning for each platform whose credentials are missing or failing and that `reaches`
    /// says the message goes to.
    private func credentialWarnings(
        _ app: AppRecord, reaches: (Platform) async throws -> Bool
    ) async throws -> [Warning] {
        let health = try await credentialMonitor.health(of: app)
        var warnings: [Warning] = []
        for platform in [Platform.ios, .android] {
            let (provider, name) = platform == .ios ? ("apns", "APNs") : ("fcm", "FCM")
            let upload = "PUT /v1/apps/\(app.id)/credentials/\(provider)"
            let credentials = health[provider]
            if let credentials, credentials.state != .failing { continue }
            guard try await reaches(platform) else { continue }
            if let credentials {
                let since = credentials.lastFailureAt.map { " since \($0.timestamp)" } ?? ""
                warnings.append(Warning(
                    code: "credentials_failing",
                    message: "\(name) refuses this app's credentials\(since) (\(credentials.lastFailureReason ?? "no reason given")): "
                        + "deliveries to \(platform) devices wait and are retried; upload working credentials with \(upload)",
                    platform: platform.rawValue))
            } else {
                warnings.append(Warning(
                    code: "credentials_missing",
                    message: "this app has no \(name) credentials: its \(platform) devices will not get this message; upload them with \(upload)",
                    platform: platform.rawValue))
            }
        }
        return warnings
    }

    /// Why the audience matched nobody: the listed IDs or tags that match no active device.
    private func emptyAudience(_ record: MessageRecord) async throws -> Warning {
        var warning = Warning(code: "audience_empty", message: "the audience matches no active device (audienceSize 0): nobody gets this message")
        switch record.audience {
        case .devices(let ids)?:
            warning.message += "; no active device of this app has these IDs"
            warning.unmatched = Self.unique(ids)
        case .externalUsers(let users)?:
            warning.message += "; none of these users has an active device of this app"
            warning.unmatched = Self.unique(users)
        case .anyTag(let tags)?:
            warning.message += "; no active device has any of these tags"
            warning.unmatched = Self.unique(tags)
        case .allTags(let tags)?:
            let tags = Self.unique(tags)
            var unmatched: [String] = []
            if tags.count == 1 {
                unmatched = tags
            } else {
                for tag in tags.prefix(Self.tagsLookedUp) where try await store.audienceSize(appID: record.appID, .anyTag([tag])) == 0 {
                    unmatched.append(tag)
                }
            }
            if unmatched.isEmpty {
                warning.message += "; each tag is on some active device, but none has all of them"
            } else {
                warning.message += "; no active device has \(unmatched.count == 1 ? "this tag" : "these tags")"
                warning.unmatched = unmatched
            }
        case .everyone?:
            warning.message += "; this app has no active device"
        case nil:
            break
        }
        return warning
    }

    /// The first ``unmatchedListed`` distinct values, in their order.
    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return Array(values.filter { seen.insert($0).inserted }.prefix(Self.unmatchedListed))
    }
}
