import Foundation
import NotibaseCore
import NotibaseSenders

/// APNs pushes and senders pointed at a test peer.
struct APNsFixture {
    let peer: TestPeer
    let key: TestAPNsKey
    let credentials: APNsCredentials

    /// A peer verifying JWTs with a fresh key, and credentials holding that key.
    static func start(script: [String: Any] = [:], peerArguments: [String] = [], key: TestAPNsKey? = nil) async throws -> APNsFixture {
        let key = try key ?? TestAPNsKey()
        let keysFile = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-keys-\(UUID().uuidString).json")
        try key.peerKeysJSON.write(to: keysFile, atomically: true, encoding: .utf8)
        let peer = try await TestPeer.start(.apns, arguments: ["--keys", keysFile.path] + peerArguments, script: script)
        return APNsFixture(peer: peer, key: key)
    }

    private init(peer: TestPeer, key: TestAPNsKey) {
        self.peer = peer
        self.key = key
        credentials = APNsCredentials(
            appID: "app-1", bundleID: "com.example.app", environment: .production,
            authentication: .token(privateKeyPEM: key.privateKeyPEM, keyID: key.keyID, teamID: key.teamID)
        )
    }

    /// A sender talking to the peer, with test-sized timeouts.
    func sender(_ adjust: (inout APNsSenderConfiguration) -> Void = { _ in }) -> APNsSender {
        var configuration = APNsSenderConfiguration.peer(url: peer.url, caFile: peer.caFile)
        configuration.requestTimeout = .seconds(5)
        adjust(&configuration)
        return APNsSender(configuration: configuration)
    }

    /// A push to `token` with the headers the core renders.
    func push(_ token: String, body: [UInt8] = Array(#"{"aps":{"alert":{"title":"Hi"},"mutable-content":1}}"#.utf8), credentials: APNsCredentials? = nil) -> Push {
        let id = UUID().uuidString.lowercased()
        let request = APNsRequest(deviceToken: token, headers: [
            HTTPHeader("apns-push-type", "alert"),
            HTTPHeader("apns-priority", "10"),
            HTTPHeader("apns-topic", "com.example.app"),
            HTTPHeader("apns-id", id),
        ], body: body)
        return Push(deliveryID: id, request: .apns(request), credentials: .apns(credentials ?? self.credentials))
    }
}

extension TestPeer {
    /// Credentials of an app whose APNs credentials are this peer's client certificate.
    func certificateCredentials(appID: String = "app-cert") throws -> APNsCredentials {
        APNsCredentials(appID: appID, bundleID: "com.example.app", environment: .sandbox,
                        authentication: .certificate(certificatePEM: try read("client-cert.pem"), privateKeyPEM: try read("client-key.pem")))
    }

    /// A sender talking to this peer, with test-sized timeouts.
    func apnsSender() -> APNsSender {
        var configuration = APNsSenderConfiguration.peer(url: url, caFile: caFile)
        configuration.requestTimeout = .seconds(5)
        return APNsSender(configuration: configuration)
    }

    /// The device tokens of logged requests, in arrival order.
    func requestedTokens() throws -> [String] {
        try requests().compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) }
    }

    /// Waits (up to 20 s) until the peer has logged at least `count` requests.
    func waitForRequests(_ count: Int) async throws {
        for _ in 0..<200 {
            if try requests().count >= count { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw PeerError("the peer did not receive \(count) requests")
    }

    /// The logged requests for one device token.
    func requests(for token: String) throws -> [[String: Any]] {
        try requests().filter { ($0["path"] as? String)?.hasSuffix("/" + token) == true }
    }

    /// The distinct `authorization` values the peer received.
    func providerTokens() throws -> Set<String> {
        Set(try requests().compactMap { ($0["headers"] as? [String: Any])?["authorization"] as? String })
    }

    /// The status the peer answered, per logged request.
    func answerStatuses() throws -> [Int] {
        try requests().compactMap { ($0["answer"] as? [String: Any])?["status"] as? Int }
    }
}
