import Foundation
@testable import NotibaseServer
import NotibaseTestSupport
import Testing

/// The webhook transport against a real HTTPS receiver on loopback (Python, `Peers/`): what each
/// kind of answer becomes, the deadline, the bounds on what is read, and signatures that the
/// Standard Webhooks libraries verify unchanged. In script/test's peer pass: it starts Python
/// processes.
@Suite(.tags(.peers)) struct WebhookTransportPeerTests {
    /// Loopback allowed (the receiver is on 127.0.0.1), its certificate authority trusted.
    private static func transport(_ receiver: WebhookReceiver, resolver: ScriptedResolver = ScriptedResolver([:])) -> HTTPSWebhookTransport {
        HTTPSWebhookTransport(allowInsecure: true, resolver: resolver, trust: .certificateFile(receiver.caFile))
    }

    private static func post(_ transport: HTTPSWebhookTransport, _ url: String, body: String = #"{"type":"webhook.test"}"#,
                             headers: [(name: String, value: String)] = [], timeout: Duration = .seconds(10)) async -> WebhookAttempt {
        await transport.post(WebhookRequest(url: url, headers: headers, body: Array(body.utf8), timeout: timeout))
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
