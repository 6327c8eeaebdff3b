import Foundation
import Testing
import NotibaseCore
@testable import NotibaseSenders
import NotibaseTestSupport

extension PeerTests {
    @Suite("APNs provider tokens: reuse, refresh timing, refusal")
    struct ProviderTokenTests {
        private func cache(_ clock: ManualClock, refreshAfter: Duration = .seconds(50 * 60)) throws -> APNsTokenCache {
            let key = try TestAPNsKey()
            return APNsTokenCache(privateKeyPEM: key.privateKeyPEM, keyID: key.keyID, teamID: key.teamID,
                                  policy: ProviderTokenPolicy(refreshAfter: refreshAfter), clock: clock.wallClock)
        }

        @Test("a token is reused until the refresh age, then replaced; never used at 60 minutes")
        func refreshTiming() async throws {
            let clock = ManualClock()
            let tokens = try cache(clock)
            let first = try await tokens.token()
            clock.advance(minutes: 20)
            #expect(try await tokens.token() == first, "reused at 20 minutes")
            clock.advance(minutes: 29.9)
            #expect(try await tokens.token() == first, "reused just before 50 minutes")
            clock.advance(minutes: 0.2)
            let second = try await tokens.token()
            #expect(second != first, "replaced at 50 minutes")
            #expect(second.issuedAt.timeIntervalSince(first.issuedAt) >= 50 * 60)
        }

        @Test("the refresh age is held between 20 and 60 minutes", arguments: [(1.0, 20.0), (30.0, 30.0), (59.5, 59.0), (120.0, 59.0)])
        func policyClamp(asked: Double, effective: Double) {
            let policy = ProviderTokenPolicy(refreshAfter: .seconds(asked * 60))
            #expect(policy.refreshAfter == .seconds(effective * 60))
            let issued = Date(timeIntervalSince1970: 1_000_000)
            #expect(policy.canReuse(issuedAt: issued, at: issued.addingTimeInterval(effective * 60 - 1)))
            #expect(!policy.canReuse(issuedAt: issued, at: issued.addingTimeInterval(effective * 60)))
        }

        @Test("a clock that jumps back more than a minute retires the token")
        func clockBackwards() async throws {
            let clock = ManualClock()
            let tokens = try cache(clock)
            let first = try await tokens.token()
            clock.advance(minutes: -5)
            #expect(try await tokens.token() != first)
        }

        @Test("many pushes refused with one token cause one replacement")
        func singleReplacement() async throws {
            let clock = ManualClock()
            let tokens = try cache(clock)
            let refused = try await tokens.token()
            let replacements = await withTaskGroup(of: APNsTokenCache.Token.self) { group in
                for _ in 0..<20 { group.addTask { try! await tokens.replace(refused) } }
                return await group.reduce(into: Set<String>()) { $0.insert($1.value) }
            }
            #expect(replacements.count == 1)
            #expect(!replacements.contains(refused.value))
        }

        @Test("the JWT carries ES256, the key ID, the team as issuer and issued-at in whole seconds")
        func claims() async throws {
            let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000.75))
            let key = try TestAPNsKey(keyID: "KEY1234567", teamID: "TEAM123456")
            let tokens = APNsTokenCache(privateKeyPEM: key.privateKeyPEM, keyID: key.keyID, teamID: key.teamID, policy: ProviderTokenPolicy(), clock: clock.wallClock)
            let parts = try await tokens.token().value.split(separator: ".").map(String.init)
            #expect(parts.count == 3)
            let header = try JSONSerialization.jsonObject(with: Data(try #require(Base64URL.decode(parts[0])))) as? [String: Any]
            let claims = try JSONSerialization.jsonObject(with: Data(try #require(Base64URL.decode(parts[1])))) as? [String: Any]
            #expect(header?["alg"] as? String == "ES256")
            #expect(header?["kid"] as? String == "KEY1234567")
            #expect(claims?["iss"] as? String == "TEAM123456")
            #expect(claims?["iat"] as? Int == 1_700_000_000)
            #expect(Base64URL.decode(parts[2])?.count == 64, "raw r‖s, not DER")
        }

        @Test("through the sender: APNs sees the same token for 49 minutes and a new one after 50")
        func senderRefresh() async throws {
            let fixture = try await APNsFixture.start()
            let clock = ManualClock()
            let sender = fixture.sender { $0.clock = clock.wallClock }
            _ = await sender.send([fixture.push(deviceToken(1))])
            clock.advance(minutes: 49)
            _ = await sender.send([fixture.push(deviceToken(2))])
            #expect(try fixture.peer.providerTokens().count == 1)
            clock.advance(minutes: 1)
            let outcomes = await sender.send([fixture.push(deviceToken(3))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            #expect(try fixture.peer.providerTokens().count == 2)
        }

        @Test("ExpiredProviderToken once: a new token is made and the push goes through")
        func expiredOnceThenAccepted() async throws {
            let token = deviceToken(1)
            let fixture = try await APNsFixture.start(script: ["tokens": [token: [["status": 403, "reason": "ExpiredProviderToken"], ["status": 200]]]])
            let sender = fixture.sender()
            let outcomes = await sender.send([fixture.push(token)])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.sent])
            #expect(try fixture.peer.providerTokens().count == 2)
        }

        @Test("a server clock an hour behind: APNs (the peer) finds every token expired; credentials rejected after one refresh")
        func clockTooFarBehind() async throws {
            let fixture = try await APNsFixture.start()
            let clock = ManualClock(Date().addingTimeInterval(-2 * 3600))
            let sender = fixture.sender { $0.clock = clock.wallClock }
            let outcomes = await sender.send([fixture.push(deviceToken(1)), fixture.push(deviceToken(2))])
            await sender.shutdown()
            #expect(outcomes.map(\.disposition) == [.credentialsRejected, .credentialsRejected])
            #expect(outcomes.first?.providerReason == "ExpiredProviderToken")
            #expect(try fixture.peer.providerTokens().count == 2, "one replacement for the whole batch")
        }
    }
}
