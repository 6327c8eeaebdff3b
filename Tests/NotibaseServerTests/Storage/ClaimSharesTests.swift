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

/// The steps of a claim, without a database: what each store's claim statement is asked for, in
/// order. The storage contract suite checks that both stores run them.
@Suite struct ClaimSharesTests {
    /// Runs a claim against messages with `due` deliveries each (nil: any message's, `rest` due),
    /// recording each step.
    func claim(limit: Int, due: [Int: Int], rest: Int) -> (steps: [String], claimed: Int) {
        var steps: [String] = []
        var due = due
        var rest = rest
        let seqs = ClaimShares.claim(limit: limit, sending: due.keys.sorted()) { message, count in
            steps.append("\(message.map(String.init) ?? "any") \(count)")
            let taken = min(count, message.map { due[$0] ?? 0 } ?? rest)
            if let message { due[message]! -= taken } else { rest -= taken }
            return Array(repeating: message ?? 0, count: taken)
        }
        return (steps, seqs.count)
    }

    @Test func eachMessageBeingSentTakesItsShareThenTheOldestDueOfAnyFillTheRest() {
        // Four messages share 100: 25 each; the second has only 5 due, so 20 are left for the oldest.
        let shared = claim(limit: 100, due: [1: 50, 2: 5, 3: 50, 4: 50], rest: 1_000)
        #expect(shared.steps == ["1 25", "2 25", "3 25", "4 25", "any 20"])
        #expect(shared.claimed == 100)
    }

    @Test func oneMessageIsClaimedOldestFirstAndAFullClaimAsksNoMore() {
        #expect(claim(limit: 10, due: [7: 50], rest: 50).steps == ["any 10"], "one message: no shares")
        // More messages than the claim holds: one each, until it is full.
        let full = claim(limit: 2, due: [1: 5, 2: 5, 3: 5], rest: 5)
        #expect(full.steps == ["1 1", "2 1"] && full.claimed == 2)
    }
}
