import Foundation
import NotibaseCore
import NotibaseSenders
import Synchronization
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
@testable import NotibaseServerTestSupport

/// The client key ships inside the app, so anyone can have it. With it alone one cannot report
/// what a device did with a delivery, nor receive another user's notifications.
@Suite("What the public client key can do")
struct ClientKeyTests {
    static func receipt(_ delivery: String, id: String = UUID().uuidString, event: String = "opened", signature: String?) -> String {
        let signed = signature.map { #", "signature": "\#($0)""# } ?? ""
        return #"{"id": "\#(id)", "deliveryId": "\#(delivery)", "event": "\#(event)", "occurredAt": "2027-01-15T08:00:00Z"\#(signed)}"#
    }

    /// The payload's nb_sig is what a receipt must carry: posted back, it is accepted.
    @Test func aReceiptSignedWithThePayloadsSignatureIsAccepted() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        try await harness.registerDevice(app, number: 2, platform: .android)
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        #expect(sender.pushes.count == 2)
        for push in sender.pushes {
            let signature: String?
            switch push.request {
            case .apns(let request):
                signature = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))[PayloadKey.signature].string
            case .fcm(let request):
                signature = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))["message"]["data"][PayloadKey.signature].string
            }
            #expect(signature?.utf8.count == 43)
            let posted = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: Self.receipt(push.deliveryID, signature: signature))
            #expect(posted.status == 202, "\(posted.text)")
        }
    }

    /// On the first release anyone with the client key could post opened or action for any
    /// delivery of the app, and a receipt for a delivery not yet sent stopped it being sent.
    @Test func aReceiptWithoutTheRightSignatureIsRefusedAndChangesNothing() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        try await harness.registerDevice(app, number: 2)
        let message = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.fanOut.runOnce()  // written, not yet sent
        let deliveries = await harness.request("GET", "/v1/messages/\(message)/deliveries", key: app.serverKey)["items"].array.compactMap { $0["id"].string }
        #expect(deliveries.count == 2)
        let (victim, other) = (deliveries[0], deliveries[1])

        let unsigned = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: Self.receipt(victim, event: "rendered", signature: nil)
            .replacingOccurrences(of: "}", with: #", "render": {"buttons": [], "imageAttached": false, "completion": "complete", "elapsedMilliseconds": 1}}"#))
        #expect(unsigned.status == 403 && unsigned.errorCode == "invalid_signature" && unsigned["error"]["field"].string == "signature")
        let forged = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: Self.receipt(victim, signature: String(repeating: "A", count: 43)))
        #expect(forged.status == 403)
        // Another delivery's signature (one the attacker did receive) does not sign this one.
        let borrowed = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: Self.receipt(victim, signature: harness.signer.receiptSignature(deliveryID: other)))
        #expect(borrowed.status == 403)

        while try await harness.worker.runOnce() > 0 {}
        #expect(sender.pushes.map(\.deliveryID).sorted() == deliveries.sorted(), "a forged receipt stopped a delivery")
        let log = await harness.request("GET", "/v1/deliveries/\(victim)", key: app.serverKey)
        #expect(log["state"].string == "sent")
        #expect(log["history"].array.map { $0["event"].string ?? "" } == ["queued", "sent"])
    }

    /// The app's backend (server key) may report receipts it relays without a signature.
    @Test func theServerKeyNeedsNoSignature() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let (delivery, _) = try await harness.sentDelivery(app)
        #expect(await harness.request("POST", "/v1/receipts", key: app.serverKey, body: Self.receipt(delivery, signature: nil)).status == 202)
    }

    // MARK: Identity verification

    /// On the first release anyone could register their own phone as someone else's user ID and
    /// receive that user's password-reset push. New apps require identity verification.
    @Test(arguments: [true, false])
    func claimingAUserNeedsTheBackendsToken(quickHandlers: Bool) async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender, quickHandlers: quickHandlers)
        let created = await harness.request("POST", "/v1/apps", key: Harness.adminKey, body: #"{"name": "Shop"}"#)
        #expect(created["requireIdentityVerification"].bool == true)
        let app = TestApp(id: created["id"].string!, serverKey: created["serverKey"].string!, clientKey: created["clientKey"].string!)
        let token = await harness.request("POST", "/v1/identity-tokens", key: app.serverKey, body: #"{"externalUserId": "alice"}"#)["token"].string!
        let other = try await harness.createApp("Other")
        let foreignToken = await harness.request("POST", "/v1/identity-tokens", key: other.serverKey, body: #"{"externalUserId": "alice"}"#)["token"].string!
        let bobsToken = await harness.request("POST", "/v1/identity-tokens", key: app.serverKey, body: #"{"externalUserId": "bob"}"#)["token"].string!

        func register(_ number: Int, _ extra: String) async -> Reply {
            await harness.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(number))", "externalUserId": "alice"\#(extra)}"#)
        }
        let alice = await register(1, #", "externalUserIdToken": "\#(token)""#)
        #expect(alice.status == 201 && alice["externalUserId"].string == "alice" && alice["warnings"] == .null)
        let attacker = await register(2, "")
        #expect(attacker.status == 201 && attacker["externalUserId"] == .null)
        #expect(attacker["warnings"].array.first?.string?.contains("identity verification") == true)
        #expect(await register(3, #", "externalUserIdToken": "\#(foreignToken)""#)["externalUserId"] == .null)
        #expect(await register(4, #", "externalUserIdToken": "\#(bobsToken)""#)["externalUserId"] == .null)
        #expect(await register(5, #", "externalUserIdToken": "nbid1.\#(String(repeating: "A", count: 43))""#)["externalUserId"] == .null)
        // The attacker cannot take over alice's verified device either: refused, its user stays hers.
        let takeover = await harness.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))", "externalUserId": "mallory"}"#)
        #expect(takeover.status == 403 && takeover.errorCode == "identity_required" && !takeover.text.contains("alice"))

        _ = try await harness.send(app, #"{"message": {"title": "Your reset code"}, "audience": {"externalUserIds": ["alice"]}}"#)
        try await harness.deliverDue()
        #expect(sender.pushes.map(\.request.deviceToken) == [Harness.token(1)])
    }

    @Test func theBackendRegistersUsersWithoutATokenAndAnAppCanTurnTheRuleOff() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp(verifiesIdentity: true)
        let byBackend = await harness.request("POST", "/v1/devices", key: app.serverKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))", "externalUserId": "alice"}"#)
        #expect(byBackend["externalUserId"].string == "alice")

        let off = await harness.request("PATCH", "/v1/apps/\(app.id)", key: app.serverKey, body: #"{"requireIdentityVerification": false}"#)
        #expect(off.status == 200 && off["requireIdentityVerification"].bool == false)
        // Takes effect at once, also for a client key resolved before the change.
        let byApp = await harness.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(2))", "externalUserId": "bob"}"#)
        #expect(byApp["externalUserId"].string == "bob")
        let bad = await harness.request("PATCH", "/v1/apps/\(app.id)", key: app.serverKey, body: #"{"requireIdentityVerification": "no"}"#)
        #expect(bad.status == 400 && bad["error"]["field"].string == "requireIdentityVerification")
        let other = try await harness.createApp("Other")
        #expect(await harness.request("PATCH", "/v1/apps/\(app.id)", key: other.serverKey, body: #"{"name": "Mine"}"#).status == 404)
    }

    @Test func identityTokensNeedTheServerKeyAndAUserID() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        #expect(await harness.request("POST", "/v1/identity-tokens", key: app.clientKey, body: #"{"externalUserId": "a"}"#).status == 403)
        let empty = await harness.request("POST", "/v1/identity-tokens", key: app.serverKey, body: #"{"externalUserId": ""}"#)
        #expect(empty.status == 400 && empty["error"]["field"].string == "externalUserId")
        let long = await harness.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))", "externalUserId": "a", "externalUserIdToken": "\#(String(repeating: "x", count: 257))"}"#)
        #expect(long.status == 400 && long["error"]["field"].string == "externalUserIdToken")
    }
}

/// Key rotation and provider credentials: what the server key holder can and cannot make the
/// server do.
@Suite("Keys and credentials")
struct KeysAndCredentialsTests {
    /// A key directory whose look-ups read the answer at once, then wait until the test opens
    /// the gate: the window in which a rotation can land.
    final class PausedDirectory: KeyDirectory {
        let owner: KeyOwner
        let rotated = Mutex(false)
        let gate = Gate()
        init(owner: KeyOwner) { self.owner = owner }
        func keyOwner(hash: [UInt8]) async throws -> KeyOwner? {
            let answer = rotated.withLock { $0 } ? nil : owner
            await gate.pass()
            return answer
        }
    }

    /// Suspends callers until opened; once open, lets everyone through.
    final class Gate: Sendable {
        private struct State {
            var waiting: [CheckedContinuation<Void, Never>] = []
            var isOpen = false
        }
        private let state = Mutex(State())

        func pass() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.isOpen { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }

        var waiting: Int { state.withLock { $0.waiting.count } }

        func open() {
            let waiting = state.withLock { state in
                state.isOpen = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// On the first release a look-up in flight during a rotation cached the old key after it,
    /// and the rotated key kept working. A rotation takes effect for every request after it.
    @Test func aLookUpInFlightDuringARotationDoesNotKeepTheOldKey() async throws {
        let directory = PausedDirectory(owner: KeyOwner(appID: "app", kind: .server))
        let auth = Authenticator(store: directory, adminKeyHash: [])
        let request = "Bearer nb_server_old"
        let inFlight = Task { try await auth.authenticate(authorization: request, allowed: [.server]) }
        while directory.gate.waiting == 0 { try await Task.sleep(for: .milliseconds(1)) }
        // The rotation lands while the look-up is under way: the store forgets the old key, and
        // the cache is cleared, before the look-up (which read the old answer) finishes.
        directory.rotated.withLock { $0 = true }
        auth.invalidate()
        directory.gate.open()
        _ = try await inFlight.value  // it started before the rotation, and may pass
        await #expect(throws: Refusal.self) { try await auth.authenticate(authorization: request, allowed: [.server]) }
        #expect(try auth.cachedCaller(authorization: request, allowed: [.server]) == nil)
    }

    static let serviceAccount = TestCredentials.serviceAccount(["token_uri": "TOKEN_URI"])

    /// On the first release a tenant could name any host and port as its service account's
    /// token_uri and read the outcome of the connection in the log: a port scanner.
    @Test func aServiceAccountMustNameGooglesTokenEndpoint() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        for uri in ["https://127.0.0.1:22/token", "https://oauth2.googleapis.com.evil.test/token", "https://oauth2.googleapis.com/token?x=1"] {
            let reply = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: Self.serviceAccount.replacingOccurrences(of: "TOKEN_URI", with: uri))
            #expect(reply.status == 400 && reply["error"]["field"].string == "token_uri", "\(uri)")
        }
        #expect(try await harness.store.credentials(appID: app.id).isEmpty)
        let google = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: Self.serviceAccount.replacingOccurrences(of: "TOKEN_URI", with: "https://oauth2.googleapis.com/token"))
        #expect(google.status == 200)
    }

    /// With an operator's token URL (a test peer) any token_uri is accepted, and never used:
    /// the sender is handed Google's, which the operator's URL then replaces.
    @Test func withAnOperatorsTokenURLTheTenantsIsIgnored() async throws {
        let harness = try await Harness(acceptsAnyFCMTokenURI: true)
        let app = try await harness.createApp()
        let reply = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/fcm", key: app.serverKey, body: Self.serviceAccount.replacingOccurrences(of: "TOKEN_URI", with: "https://127.0.0.1:22/token"))
        #expect(reply.status == 200)
        let vault = CredentialVault(store: harness.store, box: try SecretBox(key: Harness.secretKey))
        guard case .fcm(let credentials)? = try await vault.credentials(appID: app.id, platform: .android) else {
            Issue.record("no FCM credentials")
            return
        }
        #expect(credentials.tokenURI == "https://oauth2.googleapis.com/token")
    }
}
