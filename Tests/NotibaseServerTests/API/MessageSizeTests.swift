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
@testable import NotibaseServerTestSupport

/// A message larger than a push can carry is refused with a 413 naming the part that is too large,
/// and nothing is stored.
@Suite("Message size limits")
struct MessageSizeTests {
    /// A send body whose default message is `{"body": text}` plus `extra` fields.
    private static func send(body text: String, extra: String = "") -> String {
        #"{"message": {"body": "\#(text)"}, "audience": {"all": true}\#(extra)}"#
    }

    /// How long a body makes a message `{"body": …}` exactly `bytes` bytes as stored.
    private static func bodyLength(storedBytes bytes: Int) throws -> Int {
        bytes - (try StoredJSON.encode(Message(body: "")).utf8.count)
    }

    @Test func aMillionCharacterBodyIsRefusedAndNothingIsStored() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.send(body: String(repeating: "a", count: 1_000_000)))
        #expect(reply.status == 413, "\(reply.text.prefix(300))")
        #expect(reply.errorCode == "message_too_large")
        #expect(reply["error"]["field"].string == "message")
        let text = try #require(reply["error"]["message"].string)
        let overhead = try StoredJSON.encode(Message(body: "")).utf8.count
        #expect(text.contains("\(1_000_000 + overhead) bytes") && text.contains("4096"), "\(text)")
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
        #expect(try await harness.store.rowCount("deliveries") == 0)
    }

    @Test func theLimitIsOnTheStoredForm() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let fits = String(repeating: "b", count: try Self.bodyLength(storedBytes: MessagesAPI.maximumMessageBytes))
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.send(body: fits)).status == 202)
        let over = await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.send(body: fits + "b"))
        #expect(over.status == 413 && over["error"]["field"].string == "message", "\(over.text)")
        #expect(over["error"]["message"].string?.contains("4097 bytes") == true, "\(over.text)")
        // A character JSON escapes counts as stored: six bytes for a control character.
        let escaped = String(repeating: "b", count: fits.count - 6) + #"\u0001"#
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.send(body: escaped)).status == 202)
        let escapedOver = String(repeating: "b", count: fits.count - 5) + #"\u0001"#
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.send(body: escapedOver)).status == 413)
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.count == 2)
    }

    @Test func aVariantTooLargeIsNamed() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let large = String(repeating: "c", count: 5_000)
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.send(
            body: "Hello", extra: #", "variants": {"de": {"body": "Hallo"}, "fr": {"body": "\#(large)"}}"#))
        #expect(reply.status == 413 && reply.errorCode == "message_too_large", "\(reply.text)")
        #expect(reply["error"]["field"].string == "variants.fr")
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test func theWholeContentIsBounded() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        // Each variant fits a push, but twenty of them are over the content's 65,536 bytes.
        let text = String(repeating: "d", count: 3_500)
        let variants = (1...20).map { #""l\#($0)": {"body": "\#(text)"}"# }.joined(separator: ", ")
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.send(body: "Hello", extra: #", "variants": {\#(variants)}"#))
        #expect(reply.status == 413 && reply.errorCode == "message_too_large", "\(reply.text)")
        #expect(reply["error"]["field"].string == "variants")
        #expect(reply["error"]["message"].string?.contains("65536") == true, "\(reply.text)")
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
        // Fewer variants of the same size are accepted.
        let fewer = (1...15).map { #""l\#($0)": {"body": "\#(text)"}"# }.joined(separator: ", ")
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: Self.send(body: "Hello", extra: #", "variants": {\#(fewer)}"#)).status == 202)
    }
}
