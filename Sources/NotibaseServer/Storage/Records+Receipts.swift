import NotibaseCore

/// The delivery a receipt names, as a store reads it: the app's delivery of that ID, locked for the
/// receipt's transaction where the backend takes row locks.
struct ReceiptTarget: Sendable, Equatable {
    var seq: Int
    /// Its stored state; nil when the row holds a state this server does not name.
    var state: DeliveryState?
    var messageID: String
    var messageSeq: Int
}

/// What a store has read for one receipt so far, inside its transaction: the input of the decision
/// it is given (``ReceiptDeciding``). A fact still `nil` has not been read; the decision asks for it.
struct ReceiptFacts: Sendable, Equatable {
    var receipt: Receipt
    /// What the receipt's history entry keeps beside the event.
    var detail: DeliveryEventDetail
    /// How many receipts one delivery keeps.
    var limit: Int
    var now: Int
    /// The app's delivery with the receipt's delivery ID; nil: the app has none.
    var delivery: ReceiptTarget?
    /// Whether the app already stored a receipt with this ID.
    var alreadyStored: Bool? = nil
    /// How many receipts the delivery keeps already.
    var receiptsStored: Int? = nil
    /// Whether the receipt's row went in (false: a receipt with its ID was stored meanwhile).
    var inserted: Bool? = nil
}

/// A receipt's row: once per receipt ID in an app, counted against its delivery's limit.
struct ReceiptRow: Sendable, Equatable {
    var id: String
    var deliverySeq: Int
    var event: String
    var receivedAt: Int
}

/// What an accepted receipt writes once its row is in.
struct ReceiptChange: Sendable, Equatable {
    var deliverySeq: Int
    /// The history entry: the event, when it happened on the device, its detail as stored.
    var event: String
    var at: Int
    var detail: String
    /// The state the delivery moves to (due no more, updated now), after which its message may be
    /// complete; nil: the state stays.
    var state: DeliveryState?
    var messageSeq: Int
    var now: Int
    /// The answer, once written.
    var result: ReceiptResult
}

/// What a store does next for a receipt: read one more fact, write, or answer.
enum ReceiptStep: Sendable, Equatable {
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
protocol ReceiptDeciding: Sendable {
    /// The next step, from the facts read so far. Asked again after every read and insert.
    func next(_ facts: ReceiptFacts) -> ReceiptStep
}

extension ReceiptDeciding {
    /// Applies a receipt through a store's statements, each run only when the decision asks: the
    /// loop every backend shares, so a backend writes its SQL and nothing else.
    func apply(
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
