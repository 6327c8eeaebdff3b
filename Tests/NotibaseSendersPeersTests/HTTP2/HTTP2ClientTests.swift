import Foundation
import NotibaseCore
import Testing
@testable import NotibaseSenders

extension PeerTests {
    @Suite("HTTP/2 client (nghttp2, OpenSSL) against a local HTTP/2 TLS peer")
    struct HTTP2ClientTests {
        private func request(_ peer: TestPeer, token: String, timeout: Duration = .seconds(5)) -> HTTP2Request {
            HTTP2Request(url: peer.url + "/3/device/" + token,
                         headers: [HTTPHeader("apns-topic", "t"), HTTPHeader("apns-push-type", "alert")],
                         body: Array("{}".utf8), timeout: timeout)
        }

        @Test("answers come back in order with status, lowercased headers and body, over one HTTP/2 connection")
        func answers() async throws {
            let peer = try await TestPeer.start(.apns, script: ["tokens": [deviceToken(2): [["status": 400, "reason": "BadDeviceToken"]]]])
            let client = HTTP2Client(configuration: HTTP2ClientConfiguration(maxConnectionsPerHost: 1, caFile: peer.caFile))
            let results = await client.send((0..<3).map { request(peer, token: deviceToken($0)) })
            await client.shutdown()
            let responses = try results.map { try $0.get() }
            #expect(responses.map(\.status) == [200, 200, 400])
            #expect(responses[0].header("apns-id") != nil)
            #expect(String(decoding: responses[2].body, as: UTF8.self).contains("BadDeviceToken"))
            #expect(try peer.connectionCount() == 1)
            let sent = try #require(try peer.requests().first?["headers"] as? [String: Any])
            #expect(sent["content-type"] == nil, "no form content type is invented for a body")
        }

        @Test("an untrusted server certificate is a TLS error, and nothing is sent")
        func untrustedCertificate() async throws {
            let peer = try await TestPeer.start(.apns)
            let client = HTTP2Client()
            let result = await client.send(request(peer, token: deviceToken(1)))
            await client.shutdown()
            #expect(throws: TransportError.self) { try result.get() }
            if case .failure(let error) = result { #expect(error.kind == .tls) }
            #expect(try peer.requests().isEmpty)
        }

        @Test("a request without an answer times out within its timeout")
        func timeout() async throws {
            let peer = try await TestPeer.start(.apns, script: ["tokens": [deviceToken(1): [["never": true]]]])
            let client = HTTP2Client(configuration: HTTP2ClientConfiguration(caFile: peer.caFile))
            let result = await client.send(request(peer, token: deviceToken(1), timeout: .milliseconds(500)))
            await client.shutdown()
            guard case .failure(let error) = result else { Issue.record("expected a timeout"); return }
            #expect(error.kind == .timedOut)
            #expect(error.mayHaveBeenReceived)
        }

        @Test("a dropped connection is reported as lost, so the caller can resend")
        func dropped() async throws {
            let peer = try await TestPeer.start(.apns, script: ["tokens": [deviceToken(1): [["drop": true]]]])
            let client = HTTP2Client(configuration: HTTP2ClientConfiguration(caFile: peer.caFile))
            let result = await client.send(request(peer, token: deviceToken(1)))
            await client.shutdown()
            guard case .failure(let error) = result else { Issue.record("expected a lost connection"); return }
            #expect(error.kind == .connectionLost)
        }

        @Test("requests after shutdown fail at once with .shutdown")
        func afterShutdown() async throws {
            let client = HTTP2Client()
            await client.shutdown()
            let result = await client.send(HTTP2Request(url: "https://127.0.0.1:1/"))
            guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
            #expect(error.kind == .shutdown)
        }

        @Test("an idle connection is kept alive with HTTP/2 PINGs and reused")
        func idlePing() async throws {
            let peer = try await TestPeer.start(.apns)
            let client = HTTP2Client(configuration: HTTP2ClientConfiguration(caFile: peer.caFile, pingInterval: .milliseconds(300)))
            _ = await client.send(request(peer, token: deviceToken(1)))
            try await Task.sleep(for: .seconds(2))
            let pings = try peer.log().filter { $0["event"] as? String == "ping" }.count
            _ = await client.send(request(peer, token: deviceToken(2)))
            await client.shutdown()
            #expect(pings >= 2)
            #expect(try peer.connectionCount() == 1, "the pinged connection is reused")
        }

        @Test("a URL that is not https:// fails without a connection")
        func notHTTPS() async {
            let client = HTTP2Client()
            let result = await client.send(HTTP2Request(url: "http://127.0.0.1:1/"))
            await client.shutdown()
            guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
            #expect(error.kind == .other)
        }

        @Test("URLs split into origin and path", arguments: [
            ("https://api.push.apple.com/3/device/ab", "api.push.apple.com", 443, "/3/device/ab", "api.push.apple.com"),
            ("https://127.0.0.1:8443/v1/x:send?y=1", "127.0.0.1", 8443, "/v1/x:send?y=1", "127.0.0.1:8443"),
            ("https://[::1]:9000", "::1", 9000, "/", "[::1]:9000"),
        ])
        func origins(url: String, host: String, port: Int, path: String, authority: String) throws {
            let (origin, parsedPath) = try #require(Origin.parse(url))
            #expect(origin.host == host)
            #expect(Int(origin.port) == port)
            #expect(parsedPath == path)
            #expect(origin.authority == authority)
        }

        @Test("a host name is verified against the certificate (localhost is in the test certificate)")
        func hostName() async throws {
            let peer = try await TestPeer.start(.apns)
            let client = HTTP2Client(configuration: HTTP2ClientConfiguration(caFile: peer.caFile))
            let result = await client.send(HTTP2Request(url: "https://localhost:\(peer.port)/3/device/" + deviceToken(1),
                                                        headers: [HTTPHeader("apns-topic", "t"), HTTPHeader("apns-push-type", "alert")],
                                                        body: Array("{}".utf8)))
            await client.shutdown()
            #expect(try result.get().status == 200)
        }

        @Test("a response finds its headers by name, first one winning, empty values included")
        func responseHeaders() {
            let response = HTTP2Response(status: 200, headers: [HTTPHeader("apns-id", "A"), HTTPHeader("empty", ""), HTTPHeader("apns-id", "B"), HTTPHeader("retry-after", "30")])
            #expect(response.header("apns-id") == "A")
            #expect(response.header("empty") == "")
            #expect(response.header("retry-after") == "30")
            #expect(response.header("missing") == nil)
            #expect(response.headers.map(\.name) == ["apns-id", "empty", "apns-id", "retry-after"])
            #expect(HTTP2Response(status: 200).headers.isEmpty)
        }
    }
}
