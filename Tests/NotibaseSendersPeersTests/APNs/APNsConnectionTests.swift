import Foundation
import Testing
@testable import NotibaseSenders

extension PeerTests {
    @Suite("APNs connections: GOAWAY, dropped connections, silent peers, shutdown")
    struct APNsConnectionTests {
        @Test("after a GOAWAY the sender reconnects: every push is accepted once, nothing is lost")
        func goaway() async throws {
            let fixture = try await APNsFixture.start(script: ["goaway_after": 25])
            let sender = fixture.sender { $0.maxConnectionsPerApp = 1 }
            let pushes = (0..<200).map { fixture.push(deviceToken($0)) }
            let outcomes = await sender.send(pushes)
            await sender.shutdown()

            #expect(outcomes.allSatisfy { $0.disposition == .sent })
            let accepted = try fixture.peer.requests().filter { ($0["answer"] as? [String: Any])?["status"] as? Int == 200 }
            let acceptedTokens = accepted.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) }
            #expect(acceptedTokens.count == 200, "each push processed exactly once: refused streams are resent, answered ones are not")
            #expect(Set((0..<200).map(deviceToken)).subtracting(acceptedTokens).isEmpty, "no push lost")
            #expect(try fixture.peer.connectionCount() >= 8, "one connection per 25 streams")
        }

        @Test("a dropped connection: its in-flight pushes are resent on a new one; the rest are not sent twice")
        func droppedConnection() async throws {
            let dropper = deviceToken(50)
            let fixture = try await APNsFixture.start(script: ["tokens": [dropper: [["drop": true, "delay": 0.2], ["status": 200]]]])
            let sender = fixture.sender { $0.maxConnectionsPerApp = 1 }
            let early = (0..<50).map { fixture.push(deviceToken($0)) }
            _ = await sender.send(early)
            let pushes = (50..<100).map { fixture.push(deviceToken($0)) }
            let outcomes = await sender.send(pushes)
            await sender.shutdown()

            #expect(outcomes.allSatisfy { $0.disposition == .sent })
            let requests = try fixture.peer.requests()
            let perToken = Dictionary(grouping: requests.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) }, by: { $0 })
            #expect(perToken[dropper]?.count == 2, "the push whose connection dropped is sent again")
            #expect((0..<50).allSatisfy { perToken[deviceToken($0)]?.count == 1 }, "pushes answered before the drop are not resent")
            #expect((51..<100).allSatisfy { (perToken[deviceToken($0)]?.count ?? 0) <= 2 }, "at most in-flight pushes are resent")
            #expect(try fixture.peer.connectionCount() >= 2)
        }

        @Test("a peer that never answers: retry outcomes within the timeout, not a hang")
        func neverAnswers() async throws {
            let silent = deviceToken(1)
            let fixture = try await APNsFixture.start(script: ["tokens": [silent: [["never": true]]]])
            let sender = fixture.sender { $0.requestTimeout = .seconds(1) }
            let start = ContinuousClock.now
            let outcomes = await sender.send([fixture.push(silent), fixture.push(deviceToken(2))])
            let elapsed = ContinuousClock.now - start
            await sender.shutdown()

            #expect(outcomes.map(\.disposition) == [.retry, .sent])
            #expect(outcomes[0].explanation?.contains("No answer") == true)
            #expect(elapsed < .seconds(10), "bounded by the request timeout")
            #expect(try fixture.peer.requestedTokens().filter { $0 == silent }.count == 1, "a timed-out push is not resent by the sender")
        }

        @Test("slow answers within the timeout are waited for; a slow push does not hold up the others")
        func slowAnswers() async throws {
            let slow = deviceToken(1)
            let fixture = try await APNsFixture.start(script: ["tokens": [slow: [["status": 200, "delay": 1.5]]]])
            let sender = fixture.sender { $0.requestTimeout = .seconds(10) }
            async let slowOutcome = sender.send([fixture.push(slow)])
            try await fixture.peer.waitForRequests(1)
            let fast = await sender.send([fixture.push(deviceToken(2))])
            #expect(fast.map(\.disposition) == [.sent])
            #expect(await slowOutcome.map(\.disposition) == [.sent])
            let answered = try fixture.peer.requestedTokens()
            #expect(answered.firstIndex(of: deviceToken(2)) != nil)
            await sender.shutdown()
        }

        @Test("shutdown ends pushes in flight as retry, and later pushes are retry without a connection")
        func shutdownInFlight() async throws {
            let silent = deviceToken(1)
            let fixture = try await APNsFixture.start(script: ["tokens": [silent: [["never": true]]]])
            let sender = fixture.sender { $0.requestTimeout = .seconds(60) }
            async let pending = sender.send([fixture.push(silent)])
            try await fixture.peer.waitForRequests(1)
            await sender.shutdown()
            #expect(await pending.map(\.disposition) == [.retry])
            let later = await sender.send([fixture.push(deviceToken(2))])
            #expect(later.map(\.disposition) == [.retry])
            #expect(try fixture.peer.requestedTokens() == [silent])
        }

        @Test("a new credential revision gets its own connections and token")
        func credentialRevision() async throws {
            let fixture = try await APNsFixture.start()
            let sender = fixture.sender()
            _ = await sender.send([fixture.push(deviceToken(1))])
            var revised = fixture.credentials
            revised.revision = 2
            let outcomes = await sender.send([fixture.push(deviceToken(2), credentials: revised)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            #expect(try fixture.peer.connectionCount() == 2)
            #expect(try fixture.peer.providerTokens().count == 2)
        }

        @Test("concurrent batches through GOAWAYs and dropped connections: every push ends sent, none lost")
        func churn() async throws {
            var tokens: [String: Any] = [:]
            // Two drops: a push can be on a dropped connection at most twice, within the two resends.
            for number in [150, 450] { tokens[deviceToken(number)] = [["drop": true], ["status": 200]] }
            let fixture = try await APNsFixture.start(script: ["goaway_after": 60, "tokens": tokens])
            let sender = fixture.sender { $0.maxConnectionsPerApp = 2 }
            let outcomes = await withTaskGroup(of: [SendOutcome].self) { group in
                for batch in 0..<3 {
                    group.addTask { await sender.send((batch * 200..<(batch + 1) * 200).map { fixture.push(deviceToken($0)) }) }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            await sender.shutdown()
            #expect(outcomes.count == 600)
            let notSent = outcomes.filter { $0.disposition != .sent }
            #expect(notSent.isEmpty, "\(notSent.count) not sent; first: \(notSent.first?.explanation ?? "")")
            let accepted = try fixture.peer.requests().filter { ($0["answer"] as? [String: Any])?["status"] as? Int == 200 }
            let acceptedTokens = Set(accepted.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) })
            #expect(acceptedTokens.count == 600, "every push was accepted by the peer")
        }
    }
}
