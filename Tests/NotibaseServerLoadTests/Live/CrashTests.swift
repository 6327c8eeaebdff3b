import Foundation
import Testing
import NotibaseCore
import NotibaseTestSupport
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

/// Kill -9 during a 100k-device fan-out and delivery, restart on the same data, and check that
/// every delivery reaches a final state, none is lost, and duplicates stay within what was in
/// flight.
@Suite("Crash safety", .serialized)
struct CrashTests {
    static let devices = 100_000
    static let workers = 2
    static let batchSize = 1_000

    @Test(.timeLimit(.minutes(5)))
    func killDuringFanOutLosesNoDelivery() async throws {
        let directory = TemporaryDirectory()
        let record = directory.path + "/sent.log"
        let arguments = ["--sender", "accept", "--sender-record", record, "--lease-seconds", "2", "--workers", "\(Self.workers)",
                         "--batch-size", "\(Self.batchSize)", "--rate-limit-server", "0", "--max-body-bytes", "4194304"]
        var server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: arguments)
        let app = try await server.createApp()
        for batch in 0..<(Self.devices / 5_000) {
            let devices = (0..<5_000).map { index in
                #"{"platform": "\#(index % 4 == 0 ? "android" : "ios")", "token": "\#(Harness.token(batch * 5_000 + index, index % 4 == 0 ? .android : .ios))"}"#
            }
            let reply = try await server.request("POST", "/v1/devices/batch", key: app.serverKey, body: #"{"devices": [\#(devices.joined(separator: ","))]}"#)
            try #require(reply.status == 200, "\(reply.text)")
        }
        let sent = try await server.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Flash sale", "body": "Everything must go"}, "audience": {"all": true}}"#)
        #expect(sent["audienceSize"].int == Self.devices)
        let messageID = try #require(sent["id"].string)

        // Kill once some pushes went out, while fan-out or delivery is under way.
        while SenderRecord.lines(record).count < 5_000 { try await Task.sleep(for: .milliseconds(5)) }
        let before = try await server.request("GET", "/v1/messages/\(messageID)", key: app.serverKey)
        await server.kill()
        let sentBeforeKill = SenderRecord.lines(record).count
        print("crash test: killed with the message \(before["state"].string ?? "?"), \(before["counts"]["total"].int ?? 0) deliveries written, \(sentBeforeKill) pushes sent")

        server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: arguments)
        var message = Reply(status: 0, headers: [:], body: Data())
        for _ in 0..<1_200 {
            message = try await server.request("GET", "/v1/messages/\(messageID)", key: app.serverKey)
            if message["state"].string == "completed" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(message["state"].string == "completed")
        #expect(message["counts"]["total"].int == Self.devices)
        #expect(message["counts"]["byState"]["sent"].int == Self.devices)

        await server.terminate()
        let lines = SenderRecord.lines(record)
        let unique = Set(lines)
        let duplicates = lines.count - unique.count
        print("crash test: \(lines.count) pushes for \(unique.count) deliveries: \(duplicates) duplicates (bound: \(Self.workers * Self.batchSize) in flight)")
        #expect(unique.count == Self.devices)
        #expect(duplicates <= Self.workers * Self.batchSize)
    }

    /// Kill -9 during the fan-out of a throttled message, restart: the rate's slots go on where
    /// the last committed batch left them (none given twice, none skipped), no delivery goes
    /// before its slot, every one is sent, and duplicates stay within what was in flight.
    @Test(.timeLimit(.minutes(5)))
    func killDuringAThrottledSendKeepsItsRate() async throws {
        let devices = 5_000, perMinute = 60_000  // one slot a millisecond: five seconds of sending
        let directory = TemporaryDirectory()
        let record = directory.path + "/sent.log"
        let arguments = ["--sender", "accept", "--sender-record", record, "--lease-seconds", "2", "--workers", "\(Self.workers)",
                         "--batch-size", "\(Self.batchSize)", "--fanout-batch", "100", "--rate-limit-server", "0", "--max-body-bytes", "4194304"]
        var server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: arguments)
        let app = try await server.createApp()
        for batch in 0..<(devices / 5_000) {
            let bodies = (0..<5_000).map { #"{"platform": "ios", "token": "\#(Harness.token(batch * 5_000 + $0))"}"# }
            let reply = try await server.request("POST", "/v1/devices/batch", key: app.serverKey, body: #"{"devices": [\#(bodies.joined(separator: ","))]}"#)
            try #require(reply.status == 200, "\(reply.text)")
        }
        let sent = try await server.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Sale"}, "audience": {"all": true}, "ratePerMinute": \#(perMinute)}"#)
        let messageID = try #require(sent["id"].string)

        // Kill once fan-out is under way (or, on a fast machine, once sending is).
        var before = sent
        while SenderRecord.lines(record).count < 500 {
            before = try await server.request("GET", "/v1/messages/\(messageID)", key: app.serverKey)
            if before["state"].string == "fanningOut" && (before["counts"]["total"].int ?? 0) > 0 { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        await server.kill()
        print("crash test (rate): killed with the message \(before["state"].string ?? "?"), \(before["counts"]["total"].int ?? 0) deliveries written, \(SenderRecord.lines(record).count) pushes sent")

        server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: arguments)
        var message = sent
        for _ in 0..<1_200 {
            message = try await server.request("GET", "/v1/messages/\(messageID)", key: app.serverKey)
            if message["state"].string == "completed" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(message["state"].string == "completed" && message["counts"]["byState"]["sent"].int == devices)

        // Each delivery's slot (its scheduled entry) and when it was sent.
        var slots: [Int] = []
        var early = 0
        var cursor = ""
        repeat {
            let page = try await server.request("GET", "/v1/messages/\(messageID)/deliveries?limit=1000\(cursor)", key: app.serverKey)
            for item in page["items"].array {
                let history = item["history"].array
                let due = history.first { $0["event"].string == "scheduled" }?["dueAt"].string.flatMap(Self.milliseconds)
                let sentAt = history.first { $0["event"].string == "sent" }?["at"].string.flatMap(Self.milliseconds)
                guard let due, let sentAt else { Issue.record("a delivery without its slot or its send: \(item)"); continue }
                slots.append(due)
                if sentAt < due { early += 1 }
            }
            cursor = page["nextCursor"].string.map { "&cursor=" + $0 } ?? ""
        } while !cursor.isEmpty
        slots.sort()
        #expect(slots.count == devices)
        #expect(zip(slots, slots.dropFirst()).allSatisfy { $1 - $0 == 60_000 / perMinute })
        #expect(early == 0)

        await server.terminate()
        let lines = SenderRecord.lines(record)
        let duplicates = lines.count - Set(lines).count
        print("crash test (rate): \(lines.count) pushes for \(Set(lines).count) deliveries: \(duplicates) duplicates (bound: \(Self.workers * Self.batchSize) in flight)")
        #expect(Set(lines).count == devices)
        #expect(duplicates <= Self.workers * Self.batchSize)
    }

    static func milliseconds(_ text: String) -> Int? {
        Timestamp.parse(text).map { Int(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}
