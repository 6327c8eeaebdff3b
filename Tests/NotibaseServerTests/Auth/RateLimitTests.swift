import Foundation
import NotibaseCore
import Synchronization
import Testing
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
@testable import NotibaseServerTestSupport

/// Issue 28: rate limits belong to the app, not to a key, and one client address cannot spend an
/// app's whole client-key bucket.
@Suite("Rate limits")
struct RateLimitTests {
    /// Buckets per client address must not grow without bound (many addresses, each used once):
    /// full ones are forgotten once the keys reach ``TokenBuckets/pruneAt``.
    @Test func fullBucketsAreForgotten() {
        let start = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        let buckets = TokenBuckets<Int>(rate: 1, burst: 2) { start + elapsed.withLock { $0 } }
        for key in 0..<TokenBuckets<Int>.pruneAt { _ = buckets.take(key) }
        #expect(buckets.count == TokenBuckets<Int>.pruneAt)
        elapsed.withLock { $0 = .seconds(2) }
        #expect(buckets.take(-1) == nil)
        #expect(buckets.count == 1)
    }

    @Test func rotatingTheServerKeyDoesNotRefillTheBucket() async throws {
        let harness = try await Harness(rates: [.server: 5])
        let app = try await harness.createApp()
        // A burst of ten: nine requests, then the rotation.
        for _ in 0..<9 { #expect(await harness.request("GET", "/v1/devices", key: app.serverKey).status == 200) }
        let rotated = await harness.request("POST", "/v1/apps/\(app.id)/keys/server/rotate", key: app.serverKey)
        let newKey = try #require(rotated["key"].string)
        let reply = await harness.request("GET", "/v1/devices", key: newKey)
        #expect(reply.status == 429 && reply.errorCode == "rate_limited")
    }

    @Test func oneAddressFloodingTheClientKeyLeavesOtherAddressesAnswered() async throws {
        // 50 a second for the app (a burst of 100); 5 a second (a burst of 10) per address.
        let harness = try await Harness(rates: [.client: 50])
        let app = try await harness.createApp()
        func register(_ number: Int, from address: String) async -> Int {
            let request = HTTPRequest(
                method: "POST", path: "/v1/devices", headers: ["Authorization": "Bearer " + app.clientKey, "Content-Type": "application/json"],
                body: Array(#"{"platform":"ios","token":"\#(Harness.token(number))"}"#.utf8), client: IPAddress(address))
            return await harness.responder.response(to: request).status
        }
        var flood: [Int] = []
        for number in 1...200 { flood.append(await register(number, from: "203.0.113.66")) }
        #expect(flood.filter { $0 == 201 }.count == 10)
        for number in 1...20 {
            #expect(await register(1_000 + number, from: "198.51.100.\(number)") == 201, "install \(number)")
        }
    }

    @Test func theAddressBehindATrustedProxyIsTheOneLimited() async throws {
        // 10 a second for the app (a burst of 20); 1 a second (a burst of 2) per address.
        let harness = try await Harness(rates: [.client: 10])
        let app = try await harness.createApp()
        var options = HTTPServer.Options(host: "127.0.0.1", port: 0, maxBodyBytes: 1 << 20)
        options.logger = .silent
        options.connections.trustedProxies = [try #require(IPAddress("127.0.0.1"))]
        let server = try HTTPServer(options: options, responder: harness.responder)
        let client = SocketClient(port: server.port)
        func register(_ number: Int, from address: String) async throws -> Int {
            let body = #"{"platform":"ios","token":"\#(Harness.token(number))"}"#
            return try await client.request("POST", "/v1/devices", key: app.clientKey, body: body, headers: ["X-Forwarded-For": address]).status
        }
        var flood: [Int] = []
        var others: [Int] = []
        do {
            for number in 1...30 { flood.append(try await register(number, from: "203.0.113.66")) }
            for number in 1...5 { others.append(try await register(100 + number, from: "198.51.100.\(number)")) }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        #expect(flood.filter { $0 == 201 }.count == 2)
        #expect(others == Array(repeating: 201, count: 5))
    }
}
