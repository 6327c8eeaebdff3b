import Foundation
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
import Testing
#if canImport(Glibc)
import Glibc
@testable import NotibaseServerTestSupport
#endif

/// The webhook transport against a real HTTPS receiver on loopback (Python, `Peers/`): what each
/// kind of answer becomes, the deadline, the bounds on what is read, and signatures that the
/// Standard Webhooks libraries verify unchanged. In script/test's peer pass: it starts Python
/// processes.
@Suite struct WebhookTransportPeerTests {
    /// Loopback allowed (the receiver is on 127.0.0.1), its certificate authority trusted.
    private static func transport(_ receiver: WebhookReceiver, resolver: ScriptedResolver = ScriptedResolver([:])) -> HTTPSWebhookTransport {
        HTTPSWebhookTransport(allowInsecure: true, resolver: resolver, trust: .certificateFile(receiver.caFile))
    }

    private static func post(_ transport: HTTPSWebhookTransport, _ url: String, body: String = #"{"type":"webhook.test"}"#,
                             headers: [(name: String, value: String)] = [], timeout: Duration = .seconds(10)) async -> WebhookAttempt {
        await transport.post(WebhookRequest(appID: "app", url: url, headers: headers, body: Array(body.utf8), timeout: timeout))
    }

    @Test func postsOverVerifiedTLSAndReadsTheAnswer() async throws {
        let receiver = try await WebhookReceiver.start()
        let attempt = await Self.post(Self.transport(receiver), receiver.url("/status/200?batch=1"), headers: [("webhook-id", "msg_1")])
        #expect(attempt.outcome == .answered(status: 200, retryAfter: nil))
        #expect(attempt.answerPrefix == "answer 200")
        let request = try #require(receiver.requests(to: "/status/200").first)
        #expect(request["method"] as? String == "POST")
        #expect(request["query"] as? String == "batch=1")
        #expect(request["body"] as? String == #"{"type":"webhook.test"}"#)
        let headers = try #require(request["headers"] as? [String: String])
        #expect(headers["host"] == "127.0.0.1:\(receiver.port)")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["webhook-id"] == "msg_1")
    }

    /// A name is sent as SNI and must be in the certificate; the system's authorities do not know
    /// the receiver's.
    @Test func verifiesTheCertificatesNameAndAuthority() async throws {
        let receiver = try await WebhookReceiver.start()
        let resolver = ScriptedResolver(["localhost": [["127.0.0.1"]], "hooks.example.com": [["127.0.0.1"]]])
        let byName = await Self.post(Self.transport(receiver, resolver: resolver), "https://localhost:\(receiver.port)/status/200")
        #expect(byName.outcome == .answered(status: 200, retryAfter: nil))
        let wrongName = await Self.post(Self.transport(receiver, resolver: resolver), "https://hooks.example.com:\(receiver.port)/status/200")
        guard case .failed(let reason) = wrongName.outcome else { Issue.record("\(wrongName.outcome)"); return }
        #expect(reason.contains("not trusted"))
        let systemTrust = HTTPSWebhookTransport(allowInsecure: true)
        let untrusted = await Self.post(systemTrust, receiver.url("/status/200"))
        guard case .failed(let untrustedReason) = untrusted.outcome else { Issue.record("\(untrusted.outcome)"); return }
        #expect(untrustedReason.contains("not trusted"))
        #expect(receiver.requests(to: "/status/200").count == 1)
    }

    @Test func aServerErrorIsAnAnswer() async throws {
        let receiver = try await WebhookReceiver.start()
        let attempt = await Self.post(Self.transport(receiver), receiver.url("/status/500"))
        #expect(attempt.outcome == .answered(status: 500, retryAfter: nil))
        #expect(attempt.answerPrefix == "answer 500")
    }

    @Test func tooManyRequestsCarriesRetryAfterInSecondsOrAsADate() async throws {
        let receiver = try await WebhookReceiver.start()
        let transport = Self.transport(receiver)
        let seconds = await Self.post(transport, receiver.url("/status/429?retry-after=120"))
        #expect(seconds.outcome == .answered(status: 429, retryAfter: .seconds(120)))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(300)).replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: ",", with: "%2C")
        let dated = await Self.post(transport, receiver.url("/status/429?retry-after=\(date)"))
        guard case .answered(429, let retryAfter?) = dated.outcome else { Issue.record("\(dated.outcome)"); return }
        #expect(retryAfter > .seconds(240) && retryAfter <= .seconds(301))
    }

    @Test func aRedirectIsAnAnswerAndNotFollowed() async throws {
        let receiver = try await WebhookReceiver.start()
        let attempt = await Self.post(Self.transport(receiver), receiver.url("/redirect"))
        #expect(attempt.outcome == .answered(status: 302, retryAfter: nil))
        #expect(receiver.requests(to: "/redirect").count == 1)
        #expect(receiver.requests(to: "/moved").isEmpty)
    }

    /// A receiver that accepts and never answers costs the deadline, and not much more.
    @Test func aSilentReceiverTimesOutAtTheDeadline() async throws {
        let receiver = try await WebhookReceiver.start()
        let attempt = await Self.post(Self.transport(receiver), receiver.url("/hang"), timeout: .seconds(1))
        #expect(attempt.outcome == .timedOut)
        #expect(attempt.latency >= .seconds(1))
        #expect(attempt.latency < .seconds(5))  // generous: a loaded machine, never the receiver's pace
        #expect(receiver.requests(to: "/hang").count == 1)
    }

    /// A slow loris: a receiver that drips its answer's head, or its body, a byte every 0.1 s for
    /// 20 s ends at the deadline all the same: without a whole head the attempt timed out, with one
    /// it is an answer with the body read so far.
    @Test(arguments: ["/drip", "/drip-body"])
    func anAnswerDrippedByteByByteEndsAtTheDeadline(path: String) async throws {
        let receiver = try await WebhookReceiver.start()
        let attempt = await Self.post(Self.transport(receiver), receiver.url(path), timeout: .seconds(2))
        if path == "/drip" {
            #expect(attempt.outcome == .timedOut)
        } else {
            #expect(attempt.outcome == .answered(status: 200, retryAfter: nil))
            #expect(attempt.answerPrefix.hasPrefix("a") && attempt.answerPrefix.allSatisfy { $0 == "a" })
        }
        // It waited for the deadline: libcurl's clock starts a moment after the latency's, so the
        // attempt may end a few microseconds short of 2 s as the latency measures it (1.99992 s).
        #expect(attempt.latency >= .milliseconds(1_900))
        #expect(attempt.latency < .seconds(10))  // generous: a loaded machine; the receiver drips for 20 s
    }

    /// A receiver that keeps the connection open after its answer: the answer ends where its
    /// Content-Length or its last chunk says, not at the deadline.
    @Test(arguments: [("/keep-open", "hello"), ("/chunked", "Wikipedia")])
    func anAnswerEndsWhereItsLengthSays(path: String, body: String) async throws {
        let receiver = try await WebhookReceiver.start()
        let attempt = await Self.post(Self.transport(receiver), receiver.url(path), timeout: .seconds(30))
        #expect(attempt.outcome == .answered(status: 200, retryAfter: nil))
        #expect(attempt.answerPrefix == body)
        #expect(attempt.latency < .seconds(15))  // generous: the deadline is 30 s
    }

    @Test func aConnectionClosedMidAnswerFails() async throws {
        let receiver = try await WebhookReceiver.start()
        let attempt = await Self.post(Self.transport(receiver), receiver.url("/close-mid"))
        guard case .failed(let reason) = attempt.outcome else { Issue.record("\(attempt.outcome)"); return }
        #expect(reason.contains("closed the connection"))
        #expect(attempt.answerPrefix.isEmpty)
    }

    /// A 64 MB answer: its status and first KB are kept, and the connection is closed long before
    /// the receiver could write it all.
    @Test func aHugeAnswerIsReadOnlyToItsFirstKilobyte() async throws {
        let receiver = try await WebhookReceiver.start()
        let attempt = await Self.post(Self.transport(receiver), receiver.url("/huge"))
        #expect(attempt.outcome == .answered(status: 200, retryAfter: nil))
        #expect(attempt.answerPrefix == String(repeating: "a", count: 1024))
        try await waitUntil(timeout: .seconds(30)) { !receiver.requests(to: "/huge").isEmpty }
        let written = try #require(receiver.requests(to: "/huge").first?["bytes_written"] as? Int)
        #expect(written < 32 << 20)
    }

    /// The receiver verifies with `standardwebhooks` and `svix`, unchanged: one secret, then two
    /// while a secret rotates (each library must accept the request under either).
    @Test(arguments: [1, 2])
    func signedRequestsVerifyWithTheStandardWebhooksLibraries(secretCount: Int) async throws {
        let secrets = try (0..<secretCount).map { _ in try WebhookSignature.newSecret() }
        let receiver = try await WebhookReceiver.start(secrets: secrets)
        let body = #"{"type":"delivery.sent","timestamp":"2026-12-06T06:00:00Z","data":{"events":[{"id":"evt_1","text":"é \u2713"}]}}"#
        let id = "msg_2q7ZkX1"
        let timestamp = Int(Date().timeIntervalSince1970)
        let signature = try WebhookSignature.header(id: id, timestamp: timestamp, body: Array(body.utf8), keys: secrets.compactMap { WebhookSignature.key(of: $0) })
        let headers = [("webhook-id", id), ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature)]
        let attempt = await Self.post(Self.transport(receiver), receiver.url("/verify"), body: body, headers: headers.map { (name: $0.0, value: $0.1) })
        #expect(attempt.outcome == .answered(status: 204, retryAfter: nil), "\(attempt.answerPrefix)")
        // And a body changed on the way is not accepted: the receiver does check.
        let tampered = await Self.post(Self.transport(receiver), receiver.url("/verify"), body: body + " ", headers: headers.map { (name: $0.0, value: $0.1) })
        #expect(tampered.outcome == .answered(status: 400, retryAfter: nil))
        #expect(receiver.requests(to: "/verify").map { $0["verified"] as? Bool } == [true, false])
    }
}

/// Connections kept between requests (decision 0045): a request goes on the connection an earlier
/// answer left open, to the same address, name and trust only, and on a new one whenever the
/// earlier answer did not end cleanly or the peer has closed it. The receiver logs each request's
/// client port: the same port is the same connection.
@Suite struct WebhookConnectionReusePeerTests {
    private static func transport(_ receiver: WebhookReceiver, resolver: ScriptedResolver = ScriptedResolver([:])) -> HTTPSWebhookTransport {
        HTTPSWebhookTransport(allowInsecure: true, resolver: resolver, trust: .certificateFile(receiver.caFile))
    }

    private static func post(_ transport: HTTPSWebhookTransport, _ url: String) async -> WebhookAttempt {
        await transport.post(WebhookRequest(appID: "app", url: url, headers: [("webhook-id", "msg_1")], body: Array(#"{"type":"webhook.test"}"#.utf8), timeout: .seconds(10)))
    }

    /// The client ports of the logged requests to `paths`, in order, once there are `count`.
    private static func ports(_ receiver: WebhookReceiver, _ paths: Set<String>, count: Int) async throws -> [Int] {
        @Sendable func logged() -> [[String: Any]] { receiver.log().filter { ($0["path"] as? String).map(paths.contains) == true } }
        try await waitUntil(timeout: .seconds(30)) { logged().count >= count }
        return logged().compactMap { $0["peer_port"] as? Int }
    }

    @Test func theNextRequestGoesOnTheConnectionTheLastAnswerLeftOpen() async throws {
        let receiver = try await WebhookReceiver.start()
        let transport = Self.transport(receiver)
        for (index, path) in ["/alive/status/200", "/alive/status/500", "/alive/chunked", "/alive/status/204"].enumerated() {
            let attempt = await Self.post(transport, receiver.url(path))
            #expect(attempt.outcome == .answered(status: Int(path.split(separator: "/").last!) ?? 200, retryAfter: nil), "\(path)")
            #expect(attempt.onKeptConnection == (index > 0), "\(path)")
        }
        let ports = try await Self.ports(receiver, ["/alive/status/200", "/alive/status/500", "/alive/chunked", "/alive/status/204"], count: 4)
        #expect(ports.count == 4 && Set(ports).count == 1, "one connection for all four: \(ports)")
        let headers = try #require(receiver.requests(to: "/alive/status/204").first?["headers"] as? [String: String])
        #expect(headers["connection"] == nil)
    }

    /// An answer that says to close, is HTTP/1.0, or has bytes after its end leaves nothing to
    /// reuse: the request after it opens a connection of its own.
    @Test(arguments: ["/status/200", "/alive/http10", "/alive/extra"])
    func anAnswerThatDoesNotEndCleanlyEndsItsConnection(first: String) async throws {
        let receiver = try await WebhookReceiver.start()
        let transport = Self.transport(receiver)
        #expect(await Self.post(transport, receiver.url(first)).outcome == .answered(status: 200, retryAfter: nil))
        #expect(await Self.post(transport, receiver.url("/alive/status/201")).outcome == .answered(status: 201, retryAfter: nil))
        let ports = try await Self.ports(receiver, [first, "/alive/status/201"], count: 2)
        #expect(ports.count == 2 && ports[0] != ports[1], "\(ports)")
    }

    /// The peer closed the kept connection while it was idle, or as the next request arrived: that
    /// request still gets its answer, within the same attempt, on a new connection.
    @Test(arguments: ["/alive/close-idle", "/alive/drop-next"])
    func aKeptConnectionThePeerClosedIsReplaced(first: String) async throws {
        let receiver = try await WebhookReceiver.start()
        let transport = Self.transport(receiver)
        #expect(await Self.post(transport, receiver.url(first)).outcome == .answered(status: 200, retryAfter: nil))
        if first == "/alive/close-idle" {
            // Until the receiver has closed it (it logs just after closing would be too late to
            // know; its close is immediate, so a short wait makes the idle case, not the race).
            try await Task.sleep(for: .milliseconds(300))
        }
        let attempt = await Self.post(transport, receiver.url("/alive/status/202"))
        #expect(attempt.outcome == .answered(status: 202, retryAfter: nil))
        #expect(attempt.answerPrefix == "answer 202")
        try await waitUntil(timeout: .seconds(30)) { receiver.requests(to: "/alive/status/202").contains { $0["dropped"] == nil } }
        let requests = receiver.requests(to: "/alive/status/202")
        let answered = requests.filter { $0["dropped"] == nil }
        #expect(answered.count == 1)
        #expect(requests.count == (first == "/alive/drop-next" ? 2 : 1), "the dropped request, then the answered one")
        let firstPort = try #require(receiver.requests(to: first).first?["peer_port"] as? Int)
        #expect(answered.first?["peer_port"] as? Int != firstPort)
    }

    /// A name that resolves to another address now gets a connection to that address, never the
    /// one kept from before: the address checked for an attempt is the one it goes to.
    @Test func aNameThatNowResolvesElsewhereGetsAConnectionToThere() async throws {
        let receiver = try await WebhookReceiver.start()
        let resolver = ScriptedResolver(["localhost": [["127.0.0.1"], ["127.0.0.2"], ["127.0.0.1"]]])
        let transport = Self.transport(receiver, resolver: resolver)
        let url = "https://localhost:\(receiver.port)/alive/status/200"
        for _ in 0..<3 {
            #expect(await Self.post(transport, url).outcome == .answered(status: 200, retryAfter: nil))
        }
        try await waitUntil(timeout: .seconds(30)) { receiver.requests(to: "/alive/status/200").count >= 3 }
        let requests = receiver.requests(to: "/alive/status/200")
        #expect(requests.map { $0["local_address"] as? String } == ["127.0.0.1", "127.0.0.2", "127.0.0.1"])
        let ports = requests.compactMap { $0["peer_port"] as? Int }
        #expect(ports.count == 3 && ports[0] == ports[2] && ports[1] != ports[0], "the first connection kept across the other: \(ports)")
    }

    /// A connection verified under one transport's trust is never lent to another's: a transport
    /// that trusts only the system's authorities must still refuse the receiver's certificate,
    /// though a connection to the same address and name is open and idle.
    @Test func aConnectionIsReusedOnlyUnderTheTrustItWasVerifiedWith() async throws {
        let receiver = try await WebhookReceiver.start()
        let url = receiver.url("/alive/status/200")
        #expect(await Self.post(Self.transport(receiver), url).outcome == .answered(status: 200, retryAfter: nil))
        let untrusting = await Self.post(HTTPSWebhookTransport(allowInsecure: true), url)
        guard case .failed(let reason) = untrusting.outcome else { Issue.record("\(untrusting.outcome)"); return }
        #expect(reason.contains("not trusted"))
        try await waitUntil(timeout: .seconds(30)) { receiver.requests(to: "/alive/status/200").count >= 1 }
        #expect(receiver.requests(to: "/alive/status/200").count == 1)
    }
}
