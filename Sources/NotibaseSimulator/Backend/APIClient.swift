package import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
package import NotibaseCore

/// Calls a Notibase server's JSON API over HTTP, as a backend would: for `notibase demo` and the
/// live tests.
package struct APIClient: Sendable {
    package let baseURL: URL

    package init(baseURL: URL) {
        self.baseURL = baseURL
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Sends a request and returns the decoded JSON answer; throws unless the status is 2xx.
    @discardableResult
    package func call(_ method: String, _ path: String, key: String, body: JSONValue? = nil) async throws -> JSONValue {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        request.setValue("Bearer " + key, forHTTPHeaderField: "Authorization")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw Failure(description: "\(method) \(path) answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return data.isEmpty ? .null : try JSONDecoder().decode(JSONValue.self, from: data)
    }
}
