import Foundation
import NotibaseCore
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

extension ServerProcess {
    /// Asks for the message every 100 ms until it is completed or `seconds` have passed; the last
    /// answer.
    func waitUntilCompleted(_ message: String, _ app: TestApp, seconds: Int = 120) async throws -> Reply {
        var reply = Reply(status: 0, headers: [:], body: Data())
        for _ in 0..<(seconds * 10) {
            reply = try await request("GET", "/v1/messages/\(message)", key: app.serverKey)
            if reply["state"].string == "completed" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return reply
    }
}
