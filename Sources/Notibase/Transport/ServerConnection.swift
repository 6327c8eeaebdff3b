import Foundation
import NotibaseExtension
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts JSON to the Notibase server with the app's client key.
struct ServerConnection: Sendable {
    let serverURL: URL
    let clientKey: String

    /// What became of a request.
    enum Outcome: Sendable, Equatable {
        /// 2xx.
        case accepted(Data)
        /// A 4xx other than 408/429: the request will never succeed as it is.
        case rejected(status: Int, body: Data)
        /// No answer, 408, 429 or 5xx: try again later (after `retryAfter` when the server said).
        case retryLater(retryAfter: Duration?)
    }

    func post(_ path: String, body: Data, timeout: Duration = .seconds(15)) async -> Outcome {
        let request = self.request(path, body: body, timeout: timeout)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        guard let (data, response) = try? await session.data(for: request), let http = response as? HTTPURLResponse else {
            return .retryLater(retryAfter: nil)
        }
        switch http.statusCode {
        case 200..<300:
            return .accepted(data)
        case 408, 429, 500...:
            let retryAfter = http.value(forHTTPHeaderField: "Retry-After").flatMap(Int.init).map { Duration.seconds($0) }
            return .retryLater(retryAfter: retryAfter)
        default:
            return .rejected(status: http.statusCode, body: data)
        }
    }

    /// The POST of `body` to `path`, with the client key and the SDK's user agent.
    func request(_ path: String, body: Data, timeout: Duration) -> URLRequest {
        var request = URLRequest(url: serverURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer " + clientKey, forHTTPHeaderField: "Authorization")
        request.setValue(SDKUserAgent.value, forHTTPHeaderField: "User-Agent")
        let (seconds, attoseconds) = timeout.components
        request.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        return request
    }
}
