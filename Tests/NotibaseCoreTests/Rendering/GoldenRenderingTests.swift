import Foundation
import Testing
@testable import NotibaseCore

/// Each fixture message is rendered for both providers with a fixed device context and compared,
/// byte for byte, with its golden file. To accept new output after an intended change, run the
/// tests with NOTIBASE_UPDATE_GOLDEN=1 and review the diff.
@Suite("Golden provider requests")
struct GoldenRenderingTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/render")

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return files.filter { $0.hasSuffix(".message.json") }.map { String($0.dropLast(".message.json".count)) }.sorted()
    }()

    static let context = DeliveryContext(
        deviceToken: "5f1d0c2b9a8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a392817061234",
        messageID: "msg_01JDX7Q",
        deliveryID: "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b",
        receiptSignature: "q8Yx3uUo1nVbS2w0Jm4kPz7tR6cLdEaFgHiKlMnOpQr",
        now: Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z
    )

    @Test func thereAreFixtures() {
        #expect(Self.names.count >= 9)
    }

    @Test(arguments: names)
    func apns(_ name: String) throws {
        let message = try Self.loadMessage(name)
        let output: String
        do {
            let request = try APNsRenderer(message: message, topic: "com.example.shop").render(Self.context)
            #expect(request.body.count <= APNsRenderer.payloadLimit)
            let body = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            let aps = try #require(body?["aps"] as? [String: Any])
            // The server's aps.category is the identifier the device derives from nb_buttons.
            let payload = NotificationPayload(userInfo: body ?? [:])
            #expect(payload.diagnostics.isEmpty, "\(payload.diagnostics)")
            if !message.buttons.isEmpty {
                #expect(aps["category"] as? String == payload.derivedCategoryID)
                #expect(payload.buttons.map(\.id) == message.buttons.map(\.id))
            }
            output = Self.format(path: request.path, headers: request.headers, body: request.body)
        } catch let error as RenderError {
            output = "error: \(error.code)\n\(error)\n"
        }
        try Self.compare(output, golden: "\(name).apns.golden")
    }

    @Test(arguments: names)
    func fcm(_ name: String) throws {
        let message = try Self.loadMessage(name)
        let output: String
        do {
            let request = try FCMRenderer(message: message).render(Self.context)
            let body = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            let data = try #require((body?["message"] as? [String: Any])?["data"] as? [String: String])
            #expect(FCMRenderer.dataSize(of: data.map { ($0.key, $0.value) }) <= FCMRenderer.payloadLimit)
            output = Self.format(path: "/v1/projects/PROJECT_ID/messages:send", headers: [], body: request.body)
        } catch let error as RenderError {
            output = "error: \(error.code)\n\(error)\n"
        }
        try Self.compare(output, golden: "\(name).fcm.golden")
    }

    static func loadMessage(_ name: String) throws -> Message {
        try JSONDecoder().decode(Message.self, from: Data(contentsOf: fixtures.appendingPathComponent("\(name).message.json")))
    }

    static func format(path: String, headers: [HTTPHeader], body: [UInt8]) -> String {
        var text = "POST \(path)\n"
        for header in headers { text += "\(header.name): \(header.value)\n" }
        return text + "\n" + String(decoding: body, as: UTF8.self) + "\n"
    }

    static func compare(_ output: String, golden name: String) throws {
        let url = fixtures.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["NOTIBASE_UPDATE_GOLDEN"] == "1" {
            try output.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(output == expected, "\(name) differs from its golden file")
    }
}
