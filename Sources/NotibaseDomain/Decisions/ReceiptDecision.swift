import Foundation
import NotibaseCore

/// What a device's receipt does to its delivery, decided once for every store: the bounds it must
/// stay within (the app's delivery, of the message it names; once per receipt ID; at most the limit
/// per delivery), what it writes (its row, a history entry) and whether it moves the delivery's
/// state (only forward, by rank). It asks for each fact only when the ones before let the receipt
/// through, so a refused receipt costs its store no read it does not need.
package struct ReceiptDecision: ReceiptDeciding {
    package func next(_ facts: ReceiptFacts) -> ReceiptStep {
        let receipt = facts.receipt
        guard let delivery = facts.delivery, receipt.messageID == nil || receipt.messageID == delivery.messageID else {
            return .answer(.unknownDelivery)
        }
        // A device retries freely: the same ID again changes nothing.
        guard let alreadyStored = facts.alreadyStored else { return .readAlreadyStored }
        guard !alreadyStored else { return .answer(.duplicate(deliveryID: receipt.deliveryID)) }
        guard let receiptsStored = facts.receiptsStored else { return .countReceipts(deliverySeq: delivery.seq) }
        guard receiptsStored < facts.limit else { return .answer(.limitReached) }
        guard let inserted = facts.inserted else {
            return .insert(ReceiptRow(id: receipt.id, deliverySeq: delivery.seq, event: receipt.event.rawValue, receivedAt: facts.now))
        }
        // Stored by another transaction after this one looked.
        guard inserted else { return .answer(.duplicate(deliveryID: receipt.deliveryID)) }
        // The device has it: whatever the queue thought, it is at least where the receipt says.
        let reported = DeliveryState(rawValue: receipt.event.rawValue) ?? .rendered
        let advances = Lifecycle.receipt(reported, advances: delivery.state ?? .queued)
        return .write(ReceiptChange(
            deliverySeq: delivery.seq, event: receipt.event.rawValue, at: Int(receipt.occurredAt.timeIntervalSince1970 * 1000),
            detail: facts.detail.stored, state: advances ? reported : nil, messageSeq: delivery.messageSeq, now: facts.now,
            result: .accepted(deliveryID: receipt.deliveryID)))
    }

    package init() {}
}
