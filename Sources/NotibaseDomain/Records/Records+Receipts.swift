package import NotibaseCore

/// The delivery a receipt names, as a store reads it: the app's delivery of that ID, locked for the
/// receipt's transaction where the backend takes row locks.
package struct ReceiptTarget: Sendable, Equatable {
    package var seq: Int
    /// Its stored state; nil when the row holds a state this server does not name.
    package var state: DeliveryState?
    package var messageID: String
    package var messageSeq: Int

    package init(seq: Int, state: DeliveryState? = nil, messageID: String, messageSeq: Int) {
        self.seq = seq
        self.state = state
        self.messageID = messageID
        self.messageSeq = messageSeq
    }
}

/// What a store has read for one receipt so far, inside its transaction: the input of the decision
/// it is given (``ReceiptDeciding``). A fact still `nil` has not been read; the decision asks for it.
package struct ReceiptFacts: Sendable, Equatable {
    package var receipt: Receipt
    /// What the receipt's history entry keeps beside the event.
    package var detail: DeliveryEventDetail
    /// How many receipts one delivery keeps.
    package var limit: Int
    package var now: Int
    /// The app's delivery with the receipt's delivery ID; nil: the app has none.
    package var delivery: ReceiptTarget?
    /// Whether the app already stored a receipt with this ID.
    package var alreadyStored: Bool? = nil
    /// How many receipts the delivery keeps already.
    package var receiptsStored: Int? = nil
    /// Whether the receipt's row went in (false: a receipt with its ID was stored meanwhile).
    package var inserted: Bool? = nil

    package init(receipt: Receipt, detail: DeliveryEventDetail, limit: Int, now: Int, delivery: ReceiptTarget? = nil, alreadyStored: Bool? = nil, receiptsStored: Int? = nil, inserted: Bool? = nil) {
        self.receipt = receipt
        self.detail = detail
        self.limit = limit
        self.now = now
        self.delivery = delivery
        self.alreadyStored = alreadyStored
        self.receiptsStored = receiptsStored
        self.inserted = inserted
    }
}

/// A receipt's row: once per receipt ID in an app, counted against its delivery's limit.
package struct ReceiptRow: Sendable, Equatable {
    package var id: String
    package var deliverySeq: Int
    package var event: String
    package var receivedAt: Int
}

/// What an accepted receipt writes once its row is in.
package struct ReceiptChange: Sendable, Equatable {
    package var deliverySeq: Int
    /// The history entry: the event, when it happened on the device, its detail as stored.
    package var event: String
    package var at: Int
    package var detail: String
    /// The state the delivery moves to (due no more, updated now), after which its message may be
    /// complete; nil: the state stays.
    package var state: DeliveryState?
    package var messageSeq: Int
    package var now: Int
    /// The answer, once written.
    package var result: ReceiptResult
}

/// What a store does next for a receipt: read one more fact, write, or answer.
package enum ReceiptStep: Sendable, Equatable {
    /// Read ``ReceiptFacts/alreadyStored``.
    case readAlreadyStored
    /// Read ``ReceiptFacts/receiptsStored``: the receipts of this delivery.
    case countReceipts(deliverySeq: Int)
    /// Insert the row unless its ID is taken, and set ``ReceiptFacts/inserted``.
    case insert(ReceiptRow)
    /// Write the change, then answer its result.
    case write(ReceiptChange)
    case answer(ReceiptResult)
}

/// The rules a store applies a receipt by, passed in by its caller: the store reads the facts this
/// asks for and writes what it returns, inside one transaction, and decides nothing itself.
package protocol ReceiptDeciding: Sendable {
    /// The next step, from the facts read so far. Asked again after every read and insert.
    func next(_ facts: ReceiptFacts) -> ReceiptStep
}

extension ReceiptDeciding {
    /// Applies a receipt through a store's statements, each run only when the decision asks: the
    /// loop every backend shares, so a backend writes its SQL and nothing else.
    package func apply(
        _ facts: ReceiptFacts, alreadyStored: () throws -> Bool, receiptsStored: (_ deliverySeq: Int) throws -> Int,
        insert: (ReceiptRow) throws -> Bool, write: (ReceiptChange) throws -> Void
    ) rethrows -> ReceiptResult {
        var facts = facts
        while true {
            switch next(facts) {
            case .readAlreadyStored: facts.alreadyStored = try alreadyStored()
            case .countReceipts(let deliverySeq): facts.receiptsStored = try receiptsStored(deliverySeq)
            case .insert(let row): facts.inserted = try insert(row)
            case .write(let change):
                try write(change)
                return change.result
            case .answer(let result): return result
            }
        }
    }
}
