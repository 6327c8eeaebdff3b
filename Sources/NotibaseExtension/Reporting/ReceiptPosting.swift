public import Foundation
public import NotibaseCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends receipts to the Notibase server (`POST /v1/receipts` with the app's client key).
public protocol ReceiptPosting: Sendable {
    /// Posts `receipt`, giving up after `timeout`.
    func send(_ receipt: Receipt, timeout: Duration) async -> ReceiptDelivery
}

extension ReceiptPosting {
    /// Posts `receipt`; true when the server has it.
    public func post(_ receipt: Receipt, timeout: Duration) async -> Bool {
        await send(receipt, timeout: timeout) == .accepted
    }
}

/// What became of a posted receipt.
public enum ReceiptDelivery: Sendable, Hashable {
    /// The server has it (now, or from an earlier post).
    case accepted
    /// The server will never take it (an unknown delivery, a revoked key): do not retry.
    case rejected(status: Int)
    /// The network or the server failed (no answer, 429, 5xx): try again later.
    case retryLater
}

/// Where receipts go: the server's base URL and the app's client key.
public struct ReceiptEndpoint: Sendable, Hashable {
    /// The server, such as `https://push.example.com`.
    public var serverURL: URL
    /// The app's client key (`nb_client_…`): it can only register devices and post receipts.
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

    public func send(_ receipt: Receipt, timeout: Duration) async -> ReceiptDelivery {
        guard let request = self.request(for: receipt, timeout: timeout) else { return .rejected(status: 0) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.timeInterval
        configuration.timeoutIntervalForResource = timeout.timeInterval
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        guard let (_, response) = try? await session.data(for: request), let status = (response as? HTTPURLResponse)?.statusCode else {
            return .retryLater
        }
        switch status {
        case 200..<300, 409: return .accepted
        case 408, 429, 500...: return .retryLater
        default: return .rejected(status: status)
        }
    }

    /// The `POST /v1/receipts` request for `receipt`, or nil when it cannot be encoded.
    func request(for receipt: Receipt, timeout: Duration) -> URLRequest? {
        guard let body = try? JSONEncoder().encode(receipt) else { return nil }
        var request = URLRequest(url: endpoint.serverURL.appendingPathComponent("v1/receipts"))
        request.httpMethod = "POST"
        request.timeoutInterval = timeout.timeInterval
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer " + endpoint.clientKey, forHTTPHeaderField: "Authorization")
        request.setValue(SDKUserAgent.value, forHTTPHeaderField: "User-Agent")
        request.httpBody = body
        return request
    }
}
