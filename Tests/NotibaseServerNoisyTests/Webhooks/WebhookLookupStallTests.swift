import Foundation
import NotibaseCore
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
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// A tenant registering endpoints whose names never resolve, beside a bystander app (issue 43):
/// once, the lookups blocked Dispatch's shared threads, on which Swift's tasks run on Linux, and
/// a hundred of them stalled every other app's registrations and sends for half a minute. Here
/// the system resolver's lookups block as a resolver that drops queries makes `getaddrinfo` block.
/// The bounds are generous (a loaded CI machine); without the fix the bystander waited 30 s.
@Suite("Webhook lookups beside other apps", .serialized)
struct WebhookLookupStallTests {
    static let bound = Duration.seconds(3)

    @Test(.timeLimit(.minutes(2)))
    func namesThatNeverResolveLeaveOtherAppsAnswered() async throws {
        let resolver = SystemResolver { host in
            if host.hasPrefix("slow-") {
                Thread.sleep(forTimeInterval: 40)
                return []
            }
            return [IPAddress("93.184.215.14")!]
        }
        let harness = try await Harness(webhookTransport: HTTPSWebhookTransport(allowInsecure: false, resolver: resolver))
        let noisy = try await harness.createApp("noisy")
        let bystander = try await harness.createApp("bystander")
        let start = ContinuousClock.now
        let registrations = Task {
            await withTaskGroup(of: Reply.self) { group in
                for number in 1...100 {
                    group.addTask { await harness.request("POST", "/v1/webhooks", key: noisy.serverKey, body: #"{"url": "https://slow-\#(number).example.invalid/h"}"#) }
                }
                return await group.reduce(into: [Reply]()) { $0.append($1) }
            }
        }
        try await Task.sleep(for: .milliseconds(500))

        for number in 1...10 {
            let before = ContinuousClock.now
            _ = try await harness.registerDevice(bystander, number: number)
            #expect(ContinuousClock.now - before < Self.bound, "a bystander's registration waited \(ContinuousClock.now - before)")
        }
        let before = ContinuousClock.now
        let created = await harness.request("POST", "/v1/webhooks", key: bystander.serverKey, body: #"{"url": "https://hooks.example.com/h"}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(ContinuousClock.now - before < Self.bound, "a bystander's endpoint waited \(ContinuousClock.now - before)")

        // Every one of the tenant's registrations is answered within a few seconds, refused.
        let replies = await registrations.value
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(replies.count == 100)
        #expect(replies.allSatisfy { $0.status == 400 && ($0["error"]["message"].string ?? "").contains("does not resolve") })
        #expect(try await harness.store.webhookEndpoints(appID: noisy.id, page: .after(0, limit: 1_000)).isEmpty)
    }
}
