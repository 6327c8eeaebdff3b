import NotibaseDelivery
import Foundation
import NotibaseCore
import NotibaseSenders
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// What is read of messages: one with its counts and warnings, a page of them, a cancel's answer,
/// the delivery log, the funnel and an audience's size.
extension MessageService {
    /// A page of the app's messages, without counts; the last one's `seq`; and how many the app
    /// has, when `counting`.
    package func list(appID: String, page: SeqPage, counting: Bool) async throws -> (items: [MessageReport], lastSeq: Int?, total: Int?) {
        let messages = try await store.messages(appID: appID, page: page)
        let items = messages.map { MessageReport(record: $0) }
        return (items, messages.last?.seq, counting ? try await store.messageCount(appID: appID) : nil)
    }

    /// A message of the app with its counts and the warnings that hold now; refused (not found)
    /// when it has none with this ID.
    package func message(appID: String, id: String) async throws -> MessageReport {
        let message = try await stored(appID: appID, id: id)
        var report = try await report(message)
        report.warnings = try await currentWarnings(message, counts: report.counts ?? MessageCounts())
        return report
    }

    /// Cancels a message of the app: what waits for it is not sent, here (this node's
    /// ``Handoff``) or from the store. Refused as not found when there is no such message, as a
    /// conflict when it had already reached every device it could.
    package func cancel(appID: String, id: String) async throws -> MessageReport {
        guard let message = try await store.cancelMessage(appID: appID, id: id, now: clock.milliseconds()) else {
            throw Refusal.notFound("message")
        }
        handoff?.queue.forget(messageSeq: message.seq)
        if message.state == .completed {
            throw Refusal(kind: .conflict, code: "already_finished", message: "the message already reached every device it could; there is nothing to cancel", field: nil)
        }
        return try await report(message)
    }

    /// A page of a message's deliveries, in `state` when given; and how many there are, when
    /// `counting` (from the counts by state a read of the message makes).
    package func deliveries(appID: String, messageID: String, state: DeliveryState?, page: SeqPage, counting: Bool) async throws -> (items: [DeliveryRecord], total: Int?) {
        let message = try await stored(appID: appID, id: messageID)
        let items = try await store.deliveries(messageSeq: message.seq, state: state, page: page)
        guard counting else { return (items, nil) }
        let counts = try await store.deliveryCounts(messageSeq: message.seq)
        return (items, counts.filter { state == nil || $0.state == state?.rawValue }.reduce(0) { $0 + $1.count })
    }

    /// A page of the deliveries to a device of the app, and how many there are when `counting`;
    /// refused (not found) when it has no such device.
    package func deliveries(appID: String, deviceID: String, state: DeliveryState?, page: SeqPage, counting: Bool) async throws -> (items: [DeliveryRecord], total: Int?) {
        guard let items = try await store.deliveries(appID: appID, deviceID: deviceID, state: state, page: page) else {
            throw Refusal.notFound("device")
        }
        guard counting else { return (items, nil) }
        guard let total = try await store.deliveryCount(appID: appID, deviceID: deviceID, state: state) else { throw Refusal.notFound("device") }
        return (items, total)
    }

    /// One delivery of the app; refused (not found) when it has none with this ID.
    package func delivery(appID: String, id: String) async throws -> DeliveryRecord {
        guard let delivery = try await store.delivery(appID: appID, id: id) else { throw Refusal.notFound("delivery") }
        return delivery
    }

    /// A message's funnel, and the deliveries waiting for working credentials (only looked up
    /// while some retry).
    package func funnel(appID: String, messageID: String) async throws -> (message: MessageRecord, funnel: Funnel, waitingForCredentials: [CredentialWait]) {
        let message = try await stored(appID: appID, id: messageID)
        let funnel = try await store.funnel(messageSeq: message.seq, counting: FunnelSteps())
        let waiting = funnel.byState["retrying", default: 0] > 0 ? try await store.waitingForCredentials(messageSeq: message.seq) : []
        return (message, funnel, waiting)
    }

    /// How many active devices of the app `audience` reaches now.
    package func audienceSize(appID: String, _ audience: Audience) async throws -> Int {
        try await store.audienceSize(appID: appID, audience)
    }

    /// How many of an `externalUserIds` audience's distinct IDs match no active device now.
    package func unmatchedExternalUsers(appID: String, _ users: [String]) async throws -> Int {
        let listed = Set(users).count
        return listed - (try await store.matchedExternalUsers(appID: appID, users))
    }

    private func stored(appID: String, id: String) async throws -> MessageRecord {
        guard let message = try await store.message(appID: appID, id: id) else { throw Refusal.notFound("message") }
        return message
    }

    /// A message with its deliveries counted. `written`: the deliveries the send wrote, by
    /// platform and state, when it wrote them all (the counts then need no read).
    package func report(_ record: MessageRecord, written: [String: [String: Int]]? = nil) async throws -> MessageReport {
        var tally = MessageCounts()
        let rows = if let written {
            written.flatMap { platform, states in states.map { (state: $0.key, platform: platform, count: $0.value) } }
        } else {
            try await store.deliveryCounts(messageSeq: record.seq)
        }
        for row in rows {
            tally.total += row.count
            tally.byState[row.state, default: 0] += row.count
            tally.byPlatform[row.platform, default: [:]][row.state, default: 0] += row.count
        }
        if record.pacing != nil {
            let waiting = try await store.waitingDeliveries(messageSeq: record.seq, now: clock.milliseconds())
            tally.waiting = waiting.count
            tally.lastDueAt = waiting.lastDueAt
        }
        if tally.byState["retrying", default: 0] > 0 {
            let waiting = try await store.waitingForCredentials(messageSeq: record.seq)
            if !waiting.isEmpty { tally.waitingForCredentials = waiting }
        }
        return MessageReport(record: record, counts: tally)
    }
}
