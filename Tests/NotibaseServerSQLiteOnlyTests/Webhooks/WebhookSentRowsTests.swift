import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
import NotibaseTestSupport

/// A batch's `delivery.sent` rows, rendered in Swift once for both stores (``WebhookSentRows``):
/// one row per app in delivery order, the same text whether a send's facts came with its claim or
/// were read at its record, and only the first sends kept when some were sent before. No store:
/// the PostgreSQL pass skips it.
@Suite struct WebhookSentRowsTests {
    /// Send `n`'s facts: apps `a` (odd) and `b` (even), message `m1` for the first three, a user
    /// with marks a line has, an earlier attempt's provider ID on send 2.
    static func facts(_ n: Int) -> SendFacts {
        SendFacts(
            appID: n % 2 == 1 ? "a" : "b", messageID: n <= 3 ? "m1" : "m2", deliveryID: "d\(n)", platform: "ios", deviceID: "dev-\(n)",
            externalUserID: #"u,"\#(n)"\n"#, storedProviderID: n == 2 ? "p-old" : nil)
    }

    /// Sends 1 to 6, out of order, two of them without a provider's ID, and a failure among them.
    static func updates(facts: Bool) -> [DeliveryUpdate] {
        [5, 2, 1, 6, 3, 4].map { n in
            DeliveryUpdate(seq: n, state: .sent, providerID: n == 2 || n == 4 ? nil : "p-\(n)", sendFacts: facts ? Self.facts(n) : nil)
        } + [DeliveryUpdate(seq: 7, state: .failed, detail: DeliveryEventDetail())]
    }

    /// The events a row of app `app` holds, as a stream reads them.
    static func events(_ row: WebhookSentRows.Row, app: String) -> [String] {
        WebhookFeed.StreamRow(last: row.seqs.count, id: "e", type: "delivery.sent", at: 1, data: row.text, count: row.seqs.count, appID: app).events.map(\.data)
    }

    /// Send `n`'s event as the feed's encoder writes it.
    static func expected(_ n: Int) -> String {
        let facts = Self.facts(n)
        return WebhookFeed.sentData(
            appID: facts.appID, deliveryID: facts.deliveryID, providerID: n == 2 ? "p-old" : n == 4 ? nil : "p-\(n)", deviceID: facts.deviceID,
            externalUserID: facts.externalUserID, messageID: facts.messageID, platform: facts.platform)
    }

    @Test func eachAppsSendsAreOneRowInDeliveryOrder() {
        let sent = WebhookSentRows(Self.updates(facts: true))
        #expect(sent.count == 6 && sent.isWhole && sent.unrendered.isEmpty)
        #expect(sent.rows.mapValues(\.seqs) == ["a": [1, 3, 5], "b": [2, 4, 6]])
        #expect(Self.events(sent.rows["a"]!, app: "a") == [1, 3, 5].map(Self.expected))
        #expect(Self.events(sent.rows["b"]!, app: "b") == [2, 4, 6].map(Self.expected))
        #expect(sent.sorted.map(\.app) == ["a", "b"] && sent.sorted.map(\.count) == [3, 3])
    }

    /// What a store reads at the record (``WebhookSQL/sendFacts(seqs:)``) renders the same text
    /// as what the claim read: the store only stores it.
    @Test func aSendReadAtItsRecordIsTheSameTextAsOneItsClaimRead() {
        let unread = WebhookSentRows(Self.updates(facts: false))
        #expect(unread.rows.isEmpty && unread.unrendered == [1, 2, 3, 4, 5, 6] && !unread.isWhole)
        let read = unread.adding(Dictionary(uniqueKeysWithValues: (1...6).map { ($0, Self.facts($0)) }))
        #expect(read.rows == WebhookSentRows(Self.updates(facts: true)).rows)
        #expect(read.unrendered.isEmpty)
        // Some read with the claim, the others at the record: the same rows again.
        let mixed = Self.updates(facts: false).map { update in
            var update = update
            if update.seq <= 3 { update.sendFacts = Self.facts(update.seq) }
            return update
        }
        let some = WebhookSentRows(mixed)
        #expect(some.unrendered == [4, 5, 6])
        #expect(some.adding(Dictionary(uniqueKeysWithValues: (4...6).map { ($0, Self.facts($0)) })).rows == read.rows)
    }

    @Test func onlyFirstSendsAreKeptEachUnderItsMessage() throws {
        let sent = WebhookSentRows(Self.updates(facts: true))
        let all = sent.firstSends(Array(1...6), apps: nil)
        #expect(all.rows.rows == sent.rows && all.unread.isEmpty, "every send a first send: the rows as they were made")
        let some = sent.firstSends([3, 4, 6], apps: ["a"])
        #expect(some.rows.rows.mapValues(\.seqs) == ["a": [3]] && some.unread.isEmpty, "app b has no endpoint")
        #expect(Self.events(try #require(some.rows.rows["a"]), app: "a") == [Self.expected(3)], "its line names m1, which the line before it held")
        // A send its claim read nothing for, of an app that had no endpoint then, is read if first.
        var updates = Self.updates(facts: true)
        updates[0].sendFacts = nil
        updates[0].appWithoutEndpoint = "c"
        let later = WebhookSentRows(updates).firstSends([1, 5], apps: ["a", "c"])
        #expect(later.unread == [5] && later.rows.rows.mapValues(\.seqs) == ["a": [1]])
        #expect(WebhookSentRows(updates).firstSends([1], apps: ["a"]).unread.isEmpty, "app c has no endpoint yet")
        #expect(WebhookSentRows().firstSends([3, 4], apps: nil).unread == [3, 4], "rows made of nothing: every first send is read")
    }
}
