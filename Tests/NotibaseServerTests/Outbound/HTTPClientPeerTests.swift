import Foundation
@testable import NotibaseServer
import NotibaseTestSupport
import Testing

/// The client libcurl drives, against the webhook receiver (`Webhooks/Peers`): the address a
/// request goes to is checked again once connected, on a new connection and on a kept one. In
/// script/test's peer pass: it starts a Python process.
@Suite(.tags(.peers)) struct HTTPClientPeerTests {
    private static func request(_ receiver: WebhookReceiver, _ path: String, admits: @escaping @Sendable (IPAddress) -> Bool) -> HTTPClient.Request {
        HTTPClient.Request(
            url: receiver.url(path), body: Array("{}".utf8), address: IPAddress("127.0.0.1")!, admits: admits, deadline: .now + .seconds(10),
            trust: .certificateFile(receiver.caFile))
    }

    /// A peer the request does not admit is sent nothing: neither on a new connection nor on the
    /// one an earlier answer left open to it.
    @Test func aPeerTheRequestDoesNotAdmitIsSentNothing() async throws {
        let receiver = try await WebhookReceiver.start()
        let refusedNew = await HTTPClient.webhooks.send(Self.request(receiver, "/alive/status/201", admits: { _ in false }))
        guard case .peerRefused(let peer) = refusedNew.outcome else { Issue.record("\(refusedNew.outcome)"); return }
        #expect(peer == IPAddress("127.0.0.1"))
        // The control: admitted, it is answered, and its connection kept.
        let admitted = await HTTPClient.webhooks.send(Self.request(receiver, "/alive/status/200", admits: { _ in true }))
        guard case .answered(let answer) = admitted.outcome else { Issue.record("\(admitted.outcome)"); return }
        #expect(answer.status == 200 && answer.body == Array("answer 200".utf8))
        let refusedKept = await HTTPClient.webhooks.send(Self.request(receiver, "/alive/status/202", admits: { $0 != IPAddress("127.0.0.1") }))
        guard case .peerRefused = refusedKept.outcome else { Issue.record("\(refusedKept.outcome)"); return }
        #expect(refusedKept.reusedConnection)
        try await waitUntil(timeout: .seconds(30)) { receiver.requests(to: "/alive/status/200").count == 1 }
        #expect(receiver.log().compactMap { $0["path"] as? String } == ["/alive/status/200"])
    }
}
