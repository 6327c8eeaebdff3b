import Foundation
import NotibaseCore
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

/// What a device's receipt does, without a database: the bounds it stays within, what it writes,
/// how far it moves its delivery, and which reads each answer costs a store (the stores run one
/// statement per step, so a step asked for that is not needed would be a round trip more).
@Suite struct ReceiptDecisionTests {
    /// A store's side of one receipt, in memory: what it would read, and what the decision asked of it.
    struct Ledger {
        var delivery: ReceiptTarget? = ReceiptTarget(seq: 7, state: .sent, messageID: "m", messageSeq: 3)
        var alreadyStored = false
        var receiptsStored = 0
        /// False: another transaction stored the same ID between the check and the insert.
        var insertSucceeds = true
        private(set) var steps: [String] = []
        private(set) var inserted: ReceiptRow?
        private(set) var written: ReceiptChange?

        /// Runs the decision through the loop the stores share, this ledger standing for their statements.
        mutating func apply(_ receipt: Receipt, limit: Int = 5, now: Int = 9_000) -> ReceiptResult {
            let detail = DeliveryEventDetail(receiptID: receipt.id, actionID: receipt.actionID)
            let facts = ReceiptFacts(receipt: receipt, detail: detail, limit: limit, now: now, delivery: delivery)
            return ReceiptDecision().apply(
                facts,
                alreadyStored: { steps.append("read stored"); return alreadyStored },
                receiptsStored: { seq in steps.append("count"); return seq == delivery?.seq ? receiptsStored : 0 },
                insert: { row in steps.append("insert"); inserted = row; return insertSucceeds },
                write: { change in steps.append("write"); written = change })
        }
    }

    func receipt(_ event: Receipt.Event, id: String = "r1", messageID: String? = nil) -> Receipt {
        Receipt(id: id, deliveryID: "d1", messageID: messageID, event: event, occurredAt: Date(timeIntervalSince1970: 1_700_000_000.25), actionID: event == .action ? "reply" : nil)
    }

    @Test func anAcceptedReceiptWritesItsRowAndHistoryEntryAndMovesTheDeliveryForward() throws {
        var ledger = Ledger()
        #expect(ledger.apply(receipt(.opened), now: 9_000) == .accepted(deliveryID: "d1"))
        #expect(ledger.steps == ["read stored", "count", "insert", "write"], "the four statements the stores always ran for an accepted receipt")
        #expect(ledger.inserted == ReceiptRow(id: "r1", deliverySeq: 7, event: "opened", receivedAt: 9_000))
        let change = try #require(ledger.written)
        #expect(change.deliverySeq == 7 && change.event == "opened")
        #expect(change.at == 1_700_000_000_250, "the history entry is dated when it happened on the device, in milliseconds")
        #expect(change.detail == DeliveryEventDetail(receiptID: "r1").stored)
        #expect(change.state == .opened && change.now == 9_000)
        #expect(change.messageSeq == 3, "the message the delivery belongs to is checked for completion")
    }

    @Test("a receipt never lowers a delivery's state nor restates it", arguments: [
        (DeliveryState.opened, Receipt.Event.rendered), (.opened, .opened), (.action, .dismissed), (.dismissed, .opened), (.rendered, .rendered),
    ])
    func neverBackwards(current: DeliveryState, event: Receipt.Event) {
        var ledger = Ledger()
        ledger.delivery?.state = current
        #expect(ledger.apply(receipt(event)) == .accepted(deliveryID: "d1"))
        #expect(ledger.written != nil, "the history keeps it")
        #expect(ledger.written?.state == nil, "\(event) after \(current) leaves the state")
    }

    @Test("a receipt moves on whatever the queue thought", arguments: [DeliveryState.queued, .retrying, .sent, .failed, .cancelled, nil])
    func forward(current: DeliveryState?) {
        var ledger = Ledger()
        ledger.delivery?.state = current
        #expect(ledger.apply(receipt(.rendered)) == .accepted(deliveryID: "d1"))
        #expect(ledger.written?.state == .rendered)
        var opened = Ledger()
        opened.delivery?.state = .rendered
        #expect(opened.apply(receipt(.action)) == .accepted(deliveryID: "d1") && opened.written?.state == .action)
    }

    @Test func onlyTheAppsDeliveryOfTheNamedMessageAndNothingMoreIsRead() {
        var none = Ledger()
        none.delivery = nil
        #expect(none.apply(receipt(.opened)) == .unknownDelivery)
        var otherMessage = Ledger()
        #expect(otherMessage.apply(receipt(.opened, messageID: "another")) == .unknownDelivery)
        #expect(none.steps.isEmpty && otherMessage.steps.isEmpty, "an unknown delivery costs no read after the delivery's")
        var sameMessage = Ledger()
        #expect(sameMessage.apply(receipt(.opened, messageID: "m")) == .accepted(deliveryID: "d1"))
    }

    @Test func theSameIDTwiceChangesNothingAndIsNotCounted() {
        var ledger = Ledger()
        ledger.alreadyStored = true
        #expect(ledger.apply(receipt(.opened)) == .duplicate(deliveryID: "d1"))
        #expect(ledger.steps == ["read stored"])
        var raced = Ledger()
        raced.insertSucceeds = false
        #expect(raced.apply(receipt(.opened)) == .duplicate(deliveryID: "d1"))
        #expect(raced.written == nil, "stored by another transaction meanwhile: no second history entry")
    }

    @Test func aDeliveryKeepsAtMostTheLimit() {
        var full = Ledger()
        full.receiptsStored = 5
        #expect(full.apply(receipt(.dismissed), limit: 5) == .limitReached)
        #expect(full.steps == ["read stored", "count"] && full.inserted == nil)
        var last = Ledger()
        last.receiptsStored = 4
        #expect(last.apply(receipt(.dismissed), limit: 5) == .accepted(deliveryID: "d1"))
    }
}
