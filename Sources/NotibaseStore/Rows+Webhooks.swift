package import NotibaseDomain
/// The webhooks' rows, read alike on both backends.
extension Rows {
    package static let webhookEndpointColumns = """
        seq, id, app_id, url, types, description, secret, previous_secret, previous_secret_until, enabled, disabled_reason,
        cursor, batch_id, batch_last, batch_attempts, next_attempt_at, failing_since, revision, created_at, updated_at
        """

    package static func webhookEndpoint(_ row: some StoredRow) -> WebhookEndpointRecord {
        WebhookEndpointRecord(
            seq: row.int(0), id: row.text(1), appID: row.text(2), url: row.text(3),
            types: row.optionalText(4).flatMap { StoredJSON.decode([String].self, $0) }, description: row.optionalText(5),
            sealedSecret: row.blob(6), sealedPreviousSecret: row.isNull(7) ? nil : row.blob(7), previousSecretUntil: row.optionalInt(8),
            dispatch: WebhookDispatchState(
                cursor: row.int(11), batchID: row.optionalText(12), batchLast: row.optionalInt(13), batchAttempts: row.int(14),
                nextAttemptAt: row.optionalInt(15), failingSince: row.optionalInt(16), enabled: row.int(9) == 1, disabledReason: row.optionalText(10)),
            revision: row.int(17), createdAt: row.int(18), updatedAt: row.int(19))
    }

    package static let webhookEventColumns = "seq, id, type, at, data, count, app_id"

    package static func webhookEvent(_ row: some StoredRow) -> WebhookFeed.StreamRow {
        WebhookFeed.StreamRow(last: row.int(0), id: row.text(1), type: row.text(2), at: row.int(3), data: row.text(4), count: row.int(5), appID: row.text(6))
    }

    package static let webhookAttemptColumns = "batch_id, events, at, outcome, status, latency_ms, answer, next_retry_at"

    package static func webhookAttempt(_ row: some StoredRow) -> WebhookAttemptRecord {
        WebhookAttemptRecord(
            batchID: row.text(0), events: row.int(1), at: row.int(2), outcome: row.text(3), status: row.optionalInt(4),
            latencyMilliseconds: row.int(5), answer: row.text(6), nextRetryAt: row.optionalInt(7))
    }

    /// The outbox's columns after its order (`after_event` or `tx`) and number.
    package static let webhookOutboxColumns = webhookOutboxColumnsBeforeLines + ", events"

    /// ``webhookOutboxColumns`` with a row's lines left in the database: an empty text where it
    /// has some (``WebhookFeed/Row/linesInOutbox``).
    package static let webhookOutboxColumnsLeavingLines = webhookOutboxColumnsBeforeLines + ", CASE WHEN events IS NULL THEN NULL ELSE '' END"

    private static let webhookOutboxColumnsBeforeLines =
        "app_id, endpoint_id, type, at, message_id, device_id, external_user_id, platform, reason, audience_size, count"

    /// An outbox row as the feed reads it: order, seq, then ``webhookOutboxColumns``. A row holds
    /// one event, named by its columns, or a batch's sends as lines (``WebhookSendLines``).
    package static func webhookOutboxRow(_ row: some StoredRow) -> WebhookFeed.Row {
        WebhookFeed.Row(
            order: row.int(0), kind: 1, seq: row.int(1), appID: row.text(2), endpointID: row.optionalText(3), type: row.text(4), at: row.int(5),
            data: WebhookEventData(
                appId: row.text(2), messageId: row.optionalText(6), deviceId: row.optionalText(7), externalUserId: row.optionalText(8),
                platform: row.optionalText(9), reason: row.optionalText(10), audienceSize: row.optionalInt(11)),
            lines: row.optionalText(13).map { (count: row.int(12), text: $0) })
    }

    /// ``webhookOutboxRow(_:)`` of ``webhookOutboxColumnsLeavingLines``.
    package static func webhookOutboxRowLeavingLines(_ row: some StoredRow) -> WebhookFeed.Row {
        var read = webhookOutboxRow(row)
        read.linesInOutbox = read.lines != nil
        return read
    }

    /// A send's facts as ``WebhookSQL/sendFacts(seqs:)`` reads them, by delivery number.
    package static func sendFacts(_ row: some StoredRow) -> (Int, SendFacts) {
        (row.int(0), SendFacts(
            appID: row.text(1), messageID: row.text(2), deliveryID: row.text(3), platform: row.text(4), deviceID: row.optionalText(5),
            externalUserID: row.optionalText(6), storedProviderID: row.optionalText(7)))
    }

    /// The delivery history's columns after its order and number, with its delivery's, message's and device's.
    package static let webhookHistoryColumns = "m.app_id, e.event, e.at, e.detail, d.id, m.id, v.id, v.external_user_id, d.platform"

    /// A delivery history entry as the feed reads it: order, seq, then ``webhookHistoryColumns``.
    package static func webhookHistoryRow(_ row: some StoredRow) -> WebhookFeed.Row {
        WebhookFeed.Row(
            order: row.int(0), kind: 0, seq: row.int(1), appID: row.text(2), endpointID: nil, type: WebhookEventType.ofDeliveryEvent(row.text(3)),
            at: row.int(4),
            data: WebhookEventData(
                appId: row.text(2), messageId: row.text(7), deliveryId: row.text(6), deviceId: row.optionalText(8), externalUserId: row.optionalText(9),
                platform: row.text(10), details: row.optionalText(5).flatMap { StoredJSON.decode(DeliveryEventDetail.self, $0) }))
    }
}
