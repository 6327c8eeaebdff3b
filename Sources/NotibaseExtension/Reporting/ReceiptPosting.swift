import Foundation
import NotibaseCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends receipts to the Notibase server (`POST /v1/receipts` with the app's client key).
public protocol ReceiptPosting: Sendable {
    /// Posts `receipt`, giving up after `timeout`. Returns whether the server accepted it (2xx, or
    /// 409 for a receipt it already has).
    func post(_ receipt: Receipt, timeout: Duration) async -> Bool
}

/// Where receipts go: the server's base URL and the app's client key.
public struct ReceiptEndpoint: Sendable, Hashable {
    /// The server, such as `https://push.example.com`.
    public var serverURL: URL
    /// The app's client key (`nbc_…`): it can only register devices and post receipts.
    public var clientKey: String

    /// An endpoint from its parts.
    public init(serverURL: URL, clientKey: String) {
        self.serverURL = serverURL
        self.clientKey = clientKey
    }
}

/// ``ReceiptPosting`` over URLSession.
public struct HTTPReceiptPoster: ReceiptPosting {
    /// Where receipts go.
    public let endpoint: ReceiptEndpoint

    /// A poster for `endpoint`.
    public init(endpoint: ReceiptEndpoint) {
        self.endpoint = endpoint
    }

    public func post(_ receipt: Receipt, timeout: Duration) async -> Bool {
        var request = URLRequest(url: endpoint.serverURL.appendingPathComponent("v1/receipts"))
        request.httpMethod = "POST"
        request.timeoutInterval = timeout.timeInterval
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer " + endpoint.clientKey, forHTTPHeaderField: "Authorization")
        guard let body = try? JSONEncoder().encode(receipt) else { return false }
        request.httpBody = body
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.timeInterval
        configuration.timeoutIntervalForResource = timeout.timeInterval
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        guard let (_, response) = try? await session.data(for: request), let status = (response as? HTTPURLResponse)?.statusCode else {
            return false
        }
        return (200..<300).contains(status) || status == 409
    }
}
