import NotibaseCore
import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
package import NotibaseServices

/// A service's ``MessageReport`` as the answer's fields.
extension MessagesAPI.MessageBody {
    /// `encodedContent`: the send's own content as it encoded it, spliced into the answer.
    package init(_ report: MessageReport, encodedContent: EncodedContent? = nil) {
        let record = report.record
        // A message whose stored content cannot be read (a damaged database) is still listed, with
        // what is known of it and its failure, so that one bad row never breaks the app's list.
        let content = record.content
            ?? MessageContent(message: Message(body: "(this message's stored content could not be read)"), variants: nil)
        self.init(
            id: record.id, state: record.state.rawValue, audience: record.audience ?? .devices([]), audienceSize: record.audienceSize,
            message: content.message, variants: content.variants, sendAt: record.sendAt.timestamp, createdAt: record.createdAt.timestamp,
            finishedAt: record.finishedAt?.timestamp, failureReason: record.failureReason,
            localTime: record.pacing?.localTime, localDate: record.pacing?.localDate, fallbackTimeZone: record.pacing?.fallbackTimeZone,
            ratePerMinute: record.pacing?.ratePerMinute, quietHours: record.pacing?.quietHours, timeZoneFallbacks: record.pacing?.timeZoneFallbacks,
            counts: report.counts.map(MessagesAPI.Counts.init), replayed: report.replayed ? true : nil, warnings: report.warnings,
            encodedContent: encodedContent)
    }
}

extension MessagesAPI.Counts {
    package init(_ counts: MessageCounts) {
        self.init(
            total: counts.total, byState: counts.byState, byPlatform: counts.byPlatform, waiting: counts.waiting,
            lastDueAt: counts.lastDueAt?.timestamp, waitingForCredentials: counts.waitingForCredentials)
    }
}
