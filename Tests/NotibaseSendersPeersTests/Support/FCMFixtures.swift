import Foundation
import NotibaseCore
import NotibaseSenders

/// FCM messages and senders pointed at a test peer.
struct FCMFixture {
    let peer: TestPeer
    let account: TestServiceAccount
    let credentials: FCMCredentials

    /// A peer that knows a fresh service account, and credentials holding its key.
    static func start(script: [String: Any] = [:]) async throws -> FCMFixture {
        let account = try TestServiceAccount()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-sa-\(UUID().uuidString).json")
        try account.peerJSON.write(to: file, atomically: true, encoding: .utf8)
        let peer = try await TestPeer.start(.fcm, arguments: ["--service-account", file.path], script: script)
        return FCMFixture(peer: peer, account: account, credentials: FCMCredentials(
            appID: "android-app", projectID: account.projectID, clientEmail: account.clientEmail,
            privateKeyPEM: account.privateKeyPEM, tokenURI: peer.url + "/token"
        ))
    }

    /// A sender talking to the peer, with test-sized timeouts.
    func sender(_ adjust: (inout FCMSenderConfiguration) -> Void = { _ in }) -> FCMSender {
        var configuration = FCMSenderConfiguration(baseURL: peer.url, caFile: peer.caFile, requestTimeout: .seconds(5))
        adjust(&configuration)
        return FCMSender(configuration: configuration)
    }

    /// A data-only message to `token`, as the core renders it.
    func push(_ token: String, credentials: FCMCredentials? = nil) -> Push {
        let body = #"{"message":{"token":"\#(token)","android":{"priority":"high"},"data":{"nb_title":"Hi","nb_buttons":"[]"}}}"#
        return Push(deliveryID: UUID().uuidString.lowercased(), request: .fcm(FCMRequest(deviceToken: token, body: Array(body.utf8))),
                    credentials: .fcm(credentials ?? self.credentials))
    }
}

extension TestPeer {
    /// How many times the OAuth token endpoint was asked.
    func tokenRequests() throws -> Int {
        try requests().filter { $0["path"] as? String == "/token" }.count
    }

    /// The logged messages:send requests.
    func messageRequests() throws -> [[String: Any]] {
        try requests().filter { ($0["path"] as? String)?.hasSuffix("messages:send") == true }
    }

    /// The logged messages:send requests to one registration token (the peer logs it).
    func messageRequests(for token: String) throws -> [[String: Any]] {
        try messageRequests().filter { ($0["answer"] as? [String: Any])?["device"] as? String == token }
    }
}

/// An FCM registration token, distinct per `number`.
func registrationToken(_ number: Int) -> String {
    "fcm-token-\(number):APA91b" + String(repeating: "x", count: 40)
}
