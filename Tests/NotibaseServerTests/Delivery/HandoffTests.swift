import NotibaseCore
import Testing
@testable import NotibaseServer

/// What the fan-out hands this node's workers (``Handoff``): bounded, oldest first, and taking
/// turns with the store's claims so nothing else waits behind a large message.
@Suite("Handoff")
struct HandoffTests {
    static func batch(_ seqs: ClosedRange<Int>) -> [ClaimedDelivery] {
        seqs.map { ClaimedDelivery(seq: $0, id: "d\($0)", messageSeq: 1, deviceSeq: $0, platform: .ios, variant: nil, attempts: 1, createdAt: 0, token: "t", deviceActive: true) }
    }

    @Test func itHoldsNoMoreThanItsCapacity() {
        let handoff = Handoff(workers: 1, batchSize: 10)
        #expect(handoff.room == 10)
        handoff.put(Self.batch(1...6))
        #expect(handoff.room == 4)
        handoff.put(Self.batch(7...10))
        #expect(handoff.room == 0)
        _ = handoff.take()
        #expect(handoff.room == 6)
    }

    /// After each handed-off batch the store has a turn: a message written any other way waits
    /// for one batch of a large one, not for all of it.
    @Test func handedOffBatchesAndTheStoreTakeTurns() {
        let handoff = Handoff(workers: 1, batchSize: 100)
        handoff.put(Self.batch(1...2))
        handoff.put(Self.batch(3...4))
        handoff.put(Self.batch(5...6))
        #expect(handoff.take()?.map(\.seq) == [1, 2])
        #expect(handoff.take() == nil, "the store's turn")
        #expect(handoff.take()?.map(\.seq) == [3, 4])
        // A claim that found nothing takes the next batch at once, whoever's turn it was.
        #expect(handoff.take() == nil)
        #expect(handoff.takeAny()?.map(\.seq) == [5, 6])
        #expect(handoff.take() == nil && handoff.takeAny() == nil)
    }

    /// A fan-out batch may claim the room of every worker at once; each worker still takes a
    /// batch of its own size, so that a node killed mid-send has sent twice no more than its
    /// workers' batches (the crash test's bound, which 2,250 duplicates against 2,000 broke).
    @Test func aBatchLargerThanAWorkersIsTakenInPiecesOfItsSize() {
        let handoff = Handoff(workers: 2, batchSize: 4)
        #expect(handoff.capacity == 8)
        handoff.put(Self.batch(1...7))
        #expect(handoff.room == 1)
        #expect(handoff.take()?.map(\.seq) == [1, 2, 3, 4])
        #expect(handoff.takeAny()?.map(\.seq) == [5, 6, 7])
        #expect(handoff.room == 8)
    }
}
