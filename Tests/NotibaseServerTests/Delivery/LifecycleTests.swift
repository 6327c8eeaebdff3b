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
@testable import NotibaseServerTestSupport

/// The delivery lifecycle's rules, without a database: the stores' SQL is written from them, and
/// the storage contract suite checks that both stores apply them.
@Suite struct LifecycleTests {
    @Test func anOutcomeReplacesOnlyWhatTheQueueStillHoldsOrACancellation() {
        #expect(Lifecycle.replacedByOutcome.contains(.queued))
        #expect(Lifecycle.replacedByOutcome.contains(.retrying))
        #expect(Lifecycle.replacedByOutcome.contains(.cancelled))
        for reported in [DeliveryState.rendered, .opened, .action, .dismissed] {
            #expect(!Lifecycle.replacedByOutcome.contains(reported), "a late send outcome must not undo the device's \(reported) receipt")
        }
        #expect(!Lifecycle.replacedByOutcome.contains(.sent))
        #expect(!Lifecycle.replacedByOutcome.contains(.failed))
    }

    @Test func aReceiptOnlyMovesADeliveryForward() {
        #expect(Lifecycle.receipt(.rendered, advances: .sent))
        #expect(Lifecycle.receipt(.opened, advances: .rendered))
        #expect(Lifecycle.receipt(.rendered, advances: .queued), "the device has it, whatever the queue thought")
        #expect(!Lifecycle.receipt(.rendered, advances: .opened))
        #expect(!Lifecycle.receipt(.dismissed, advances: .action))
        for state in DeliveryState.allCases { #expect(!Lifecycle.receipt(state, advances: state)) }
    }

    @Test func pendingIsExactlyTheStatesNotFinal() {
        for state in DeliveryState.allCases { #expect(Lifecycle.pending.contains(state) == !state.isFinal) }
    }

    @Test func aMessageIsCompleteWhenWrittenAndNothingIsPending() {
        // The one statement both stores complete messages with: only a message whose audience is
        // all written (sending, not fanningOut or cancelled) and with nothing pending.
        #expect(Lifecycle.completing == .sending && Lifecycle.completed == .completed)
        #expect(Lifecycle.completion(time: "?", messages: "seq = ?", hasPending: "P") == """
            UPDATE messages SET state = 'completed', finished_at = ?
            WHERE seq = ? AND state = 'sending' AND NOT (P)
            """)
        #expect(Lifecycle.completion(time: "$1", messages: nil, hasPending: "P").contains("WHERE state = 'sending' AND NOT (P)"))
    }

    @Test func everyMessageStateIsEitherUnfinishedOrFinished() {
        for state in MessageState.allCases {
            #expect(Lifecycle.unfinished.contains(state) != Lifecycle.finished.contains(state))
        }
        #expect(Lifecycle.toFanOut.isSubset(of: Lifecycle.unfinished))
    }

    @Test func theSQLListsAreTheStatesInDeclarationOrder() {
        #expect(Lifecycle.pendingSQL == "'queued', 'retrying'")
        #expect(Lifecycle.replacedByOutcomeSQL == "'queued', 'retrying', 'cancelled'")
        #expect(Lifecycle.finishedSQL == "'completed', 'cancelled', 'failed'")
    }

    @Test func deliveriesAreWrittenNoEarlierThanTheirDevicesAndMessage() {
        #expect(Lifecycle.deliveriesWritten(now: 200, messageCreated: 100, devicesCreated: [10, 20]) == 200)
        #expect(Lifecycle.deliveriesWritten(now: 200, messageCreated: 100, devicesCreated: [10, 250, 20]) == 250)
        #expect(Lifecycle.deliveriesWritten(now: 200, messageCreated: 300, devicesCreated: [250]) == 300)
        #expect(Lifecycle.deliveriesWritten(now: 200, messageCreated: 100, devicesCreated: []) == 200)
    }

    @Test func aClaimSharesItsBatchBetweenTheMessagesBeingSent() {
        #expect(ClaimShares.share(limit: 1_000, sendingMessages: 1) == nil, "one message: oldest first is the same")
        #expect(ClaimShares.share(limit: 1_000, sendingMessages: 0) == nil)
        #expect(ClaimShares.share(limit: 1_000, sendingMessages: 4) == 250)
        #expect(ClaimShares.share(limit: 10, sendingMessages: 40) == 1, "every message gets at least one")
        #expect(ClaimShares.share(limit: 1_000, sendingMessages: 5_000) == 10, "past 100 messages the shares stop shrinking")
    }
}

@Suite struct BatchPacingTests {
    @Test func slowBatchesShrinkToTheMinimumAndQuickOnesGrowBack() {
        var pacing = BatchPacing(maximum: 5_000)
        #expect(pacing.size == 5_000)
        pacing.record(.milliseconds(900))
        #expect(pacing.size == 2_500)
        for _ in 0..<10 { pacing.record(.seconds(1)) }
        #expect(pacing.size == 250)
        pacing.record(.milliseconds(150))  // neither slow nor quick: kept
        #expect(pacing.size == 250)
        for _ in 0..<10 { pacing.record(.milliseconds(20)) }
        #expect(pacing.size == 5_000)
    }

    @Test func theStoreSetsWhatIsSlow() throws {
        var pacing = BatchPacing(maximum: 1_000, slow: .milliseconds(60))
        pacing.record(.milliseconds(70))
        #expect(pacing.size == 500)
        pacing.record(.milliseconds(40))  // neither slow nor quick (24 ms): kept
        #expect(pacing.size == 500)
        pacing.record(.milliseconds(20))
        #expect(pacing.size == 1_000)
        // On SQLite every request waits for the batch in progress: its batches are kept short.
        #expect(try SQLiteStore(path: ":memory:").fanOutBatchTarget < BatchPacing(maximum: 1).slow)
    }

    @Test func aSmallConfiguredBatchIsItsOwnMinimum() {
        var pacing = BatchPacing(maximum: 100)
        pacing.record(.seconds(1))
        #expect(pacing.size == 100)
    }
}
