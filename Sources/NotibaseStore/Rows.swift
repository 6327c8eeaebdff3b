import Foundation
import NotibaseCore
import NotibaseSenders
package import NotibaseDomain

/// A row of a query result, as both backends read it: columns by position.
package protocol StoredRow {
    func isNull(_ column: Int32) -> Bool
    func int(_ column: Int32) -> Int
    func text(_ column: Int32) -> String
    func blob(_ column: Int32) -> [UInt8]
}

extension StoredRow {
    package func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}

/// The records as rows: which columns each backend selects, in which order, and how a row becomes
/// a record. One definition for both backends, so they cannot read a column differently. (Flags
/// are integers, 1 or 0, in both.)
package enum Rows {
    package static let appColumns = "id, name, credentials_revision, created_at, require_identity_verification, pacing"

    package static let credentialColumns = "provider, sealed, summary, updated_at, health_state, last_success_at, last_failure_at, last_failure_reason, test_result"

    package static let deviceColumns = """
        seq, id, platform, token, external_user_id, tags, locale, time_zone, app_version, sdk_version,
        active, deactivated_reason, deactivated_at, created_at, updated_at, apns_environment
        """

    package static let messageColumns = "seq, id, app_id, content, audience, state, send_at, audience_size, fanout_cursor, created_at, finished_at, failure_reason, pacing"

    /// Deliveries with their message's and device's IDs (standard SQL: both backends run it).
    package static let deliveryQuery = """
        SELECT d.seq, d.id, m.id, dev.id, d.platform, d.variant, d.state, d.attempts, d.provider_id, d.due_at, d.created_at, d.updated_at, d.sent_at,
            d.schedule, d.scheduled_at
        FROM deliveries d JOIN messages m ON m.seq = d.message_seq LEFT JOIN devices dev ON dev.seq = d.device_seq
        """

    /// The stored form of tags: a JSON array of strings.
    package static func tagsJSON(_ tags: [String]) -> String {
        JSON.text(tags)
    }

    /// The detail of the `failed` entry a deleted device's waiting deliveries get.
    package static let deviceDeletedDetail = DeliveryEventDetail.because("the device was deleted before this was sent").stored

    /// The detail of the `cancelled` entry a signed-out device's waiting deliveries of messages
    /// addressed by user get.
    package static let signedOutDetail = DeliveryEventDetail.because("the device signed out of its user before this was sent").stored

    /// How a stored audience that lists users starts (``StoredJSON``: its one key): what the stores
    /// look for without decoding every audience.
    package static let userAudiencePrefix = #"{"externalUserIds":"#

    /// A user ID as it is written in a stored audience's list (a JSON string): what the stores look
    /// for in an audience before decoding it.
    package static func storedUserID(_ user: String) throws -> String { try StoredJSON.encode(user) }

    /// A history entry from its event, time and detail columns, starting at `column`.
    package static func event(_ row: some StoredRow, from column: Int32) -> DeliveryEventRecord {
        DeliveryEventRecord(
            event: row.text(column), at: row.int(column + 1),
            detail: row.optionalText(column + 2).flatMap { StoredJSON.decode(DeliveryEventDetail.self, $0) })
    }

    package static func app(_ row: some StoredRow) -> AppRecord {
        AppRecord(
            id: row.text(0), name: row.text(1), credentialsRevision: row.int(2), createdAt: row.int(3), requireIdentityVerification: row.int(4) == 1,
            pacing: row.optionalText(5).flatMap { StoredJSON.decode(AppPacing.self, $0) } ?? AppPacing())
    }

    package static func credential(_ row: some StoredRow) -> CredentialRecord {
        CredentialRecord(
            provider: row.text(0), sealed: row.blob(1), summary: row.text(2), updatedAt: row.int(3),
            health: CredentialHealth(
                state: CredentialHealth.State(rawValue: row.text(4)) ?? .untested, lastSuccessAt: row.optionalInt(5), lastFailureAt: row.optionalInt(6),
                lastFailureReason: row.optionalText(7)),
            test: row.optionalText(8).flatMap { StoredJSON.decode(CredentialTestResult.self, $0) } ?? CredentialTestResult())
    }

    package static func device(_ row: some StoredRow) throws -> DeviceRecord {
        try device(row, knownTags: nil)
    }

    /// A device from a row; `knownTags` (what was just written) saves decoding the stored JSON.
    package static func device(_ row: some StoredRow, knownTags: [String]?) throws -> DeviceRecord {
        guard let platform = Platform(rawValue: row.text(2)) else { throw StorageError.corrupt("device platform \(row.text(2))") }
        let stored = row.text(5)
        let tags = knownTags ?? (stored == "[]" ? [] : (try? JSONDecoder().decode([String].self, from: Data(stored.utf8))) ?? [])
        return DeviceRecord(
            seq: row.int(0), id: row.text(1), platform: platform, token: row.text(3), externalUserID: row.optionalText(4),
            tags: tags, locale: row.optionalText(6), timeZone: row.optionalText(7), appVersion: row.optionalText(8),
            sdkVersion: row.optionalText(9), active: row.int(10) == 1, deactivatedReason: row.optionalText(11),
            deactivatedAt: row.optionalInt(12), createdAt: row.int(13), updatedAt: row.int(14),
            apnsEnvironment: row.optionalText(15).flatMap(APNsEnvironment.init(rawValue:)))
    }

    package static func message(_ row: some StoredRow) throws -> MessageRecord {
        guard let state = MessageState(rawValue: row.text(5)) else { throw StorageError.corrupt("message state \(row.text(5))") }
        return MessageRecord(
            seq: row.int(0), id: row.text(1), appID: row.text(2), content: StoredJSON.decode(MessageContent.self, row.text(3)),
            audience: StoredJSON.decode(Audience.self, row.text(4)), state: state,
            sendAt: row.int(6), audienceSize: row.int(7), fanOutCursor: row.int(8), createdAt: row.int(9), finishedAt: row.optionalInt(10),
            failureReason: row.optionalText(11), pacing: row.optionalText(12).flatMap { StoredJSON.decode(Pacing.self, $0) })
    }

    package static func delivery(_ row: some StoredRow) throws -> DeliveryRecord {
        guard let platform = Platform(rawValue: row.text(4)), let state = DeliveryState(rawValue: row.text(6)) else {
            throw StorageError.corrupt("delivery \(row.text(1))")
        }
        return DeliveryRecord(
            seq: row.int(0), id: row.text(1), messageID: row.text(2), deviceID: row.optionalText(3), platform: platform,
            variant: row.optionalText(5), state: state, attempts: row.int(7), providerID: row.optionalText(8),
            nextAttemptAt: row.optionalInt(9), createdAt: row.int(10), updatedAt: row.int(11), sentAt: row.optionalInt(12),
            schedule: ScheduleNote.detail(stored: row.optionalText(13), dueAt: row.optionalInt(14)))
    }

    /// What a claim selects of each delivery, its device and message, in both backends (`d` the
    /// delivery, `v` the device).
    package static let claimedColumns = """
        d.seq, d.id, d.message_seq, d.device_seq, d.platform, d.variant, d.attempts, d.created_at,
        v.token, v.active, v.deactivated_reason, d.moment_at, d.scheduled_at, v.apns_environment
        """

    package static func claimed(_ row: some StoredRow) -> ClaimedDelivery {
        ClaimedDelivery(
            seq: row.int(0), id: row.text(1), messageSeq: row.int(2), deviceSeq: row.optionalInt(3),
            platform: Platform(rawValue: row.text(4)) ?? .ios, variant: row.optionalText(5), attempts: row.int(6),
            createdAt: row.int(7), token: row.optionalText(8), deviceActive: row.optionalInt(9) == 1,
            deactivatedReason: row.optionalText(10), momentAt: row.optionalInt(11), scheduledAt: row.optionalInt(12),
            apnsEnvironment: row.optionalText(13).flatMap(APNsEnvironment.init(rawValue:)))
    }
}
