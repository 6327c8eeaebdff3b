import Foundation
import Testing
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
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The HTTP layer's parsing rules over real sockets: ambiguous framing, NUL bytes and repeated
/// security headers are refused with one JSON 400, and the connection is closed, so nothing sent
/// after them on it is ever run as a request.
@Suite("HTTP parsing over sockets", .serialized)
struct HTTPParsingTests {
    static let key = Harness.adminKey

    /// A request that creates an app named `name`: smuggled after a refused one, it must not run.
    static func createApp(_ name: String) -> String {
        let body = #"{"name": "\#(name)"}"#
        return "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// The app names the server holds, asked on a new connection.
    func appNames(_ server: Server) async throws -> [String] {
        let client = RawHTTPClient(port: server.port)
        let response = try #require(await client.exchange("GET /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\n\r\n"))
        let reply = Reply(status: response.status, headers: response.headers, body: Data(response.body.utf8))
        return reply["items"].array.compactMap { $0["name"].string }
    }

    /// Sends `text` on a new connection; expects one 400 with `code`, then the connection closed.
    func expectRefused(_ server: Server, _ text: String, code: String, field: String? = nil) async throws {
        let client = RawHTTPClient(port: server.port)
        let response = try #require(await client.exchange(text), "no answer")
        #expect(response.status == 400)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["connection"]?.lowercased() == "close")
        let reply = Reply(status: response.status, headers: response.headers, body: Data(response.body.utf8))
        #expect(reply.errorCode == code, "\(response.body)")
        if let field { #expect(reply["error"]["field"].string == field) }
        #expect(await client.nextResponse() == nil, "the connection stays open after a refused request")
    }

    @Test func contentLengthWithTransferEncodingIsRefusedAndTheSmuggledRequestNeverRuns() async throws {
        let (server, directory) = try await InProcessServer.start()
        // The chunked body ends at once ("0"), so a server that frames by Transfer-Encoding reads
        // the rest as a second request; one that frames by Content-Length reads it as body.
        let text = "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\nContent-Type: application/json\r\n"
            + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + Self.createApp("smuggled")
        try await expectRefused(server, text, code: "invalid_framing", field: "Transfer-Encoding")
        #expect(try await appNames(server) == [])
        await server.shutdown()
        _ = directory
    }

    @Test func twoDifferentContentLengthsAreRefusedAndTheSmuggledRequestNeverRuns() async throws {
        let (server, directory) = try await InProcessServer.start()
        let smuggled = Self.createApp("smuggled")
        let text = "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\nContent-Type: application/json\r\n"
            + "Content-Length: 2\r\nContent-Length: \(2 + smuggled.utf8.count)\r\n\r\n{}" + smuggled
        try await expectRefused(server, text, code: "duplicate_header", field: "Content-Length")
        #expect(try await appNames(server) == [])
        await server.shutdown()
        _ = directory
    }

    @Test func aTransferEncodingOtherThanChunkedIsRefused() async throws {
        let (server, directory) = try await InProcessServer.start()
        let text = "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + Self.createApp("smuggled")
        try await expectRefused(server, text, code: "invalid_framing", field: "Transfer-Encoding")
        #expect(try await appNames(server) == [])
        await server.shutdown()
        _ = directory
    }

    @Test(arguments: [
        ("escaped", "/v1/apps%00/public"),
        ("escaped in the query", "/v1/apps?cursor=%00"),
        ("raw", "/v1/apps\u{0}/public"),
        ("raw at the end", "/v1/apps\u{0}"),
    ])
    func aNULInTheTargetIsRefused(_ kind: String, _ target: String) async throws {
        let (server, directory) = try await InProcessServer.start()
        try await expectRefused(server, "GET \(target) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\n\r\n", code: "invalid_path")
        await server.shutdown()
        _ = directory
    }

    @Test(arguments: [
        ("followed by junk, last header", "Host: localhost\r\nAuthorization: Bearer \(key)\u{0}junk\r\n"),
        ("followed by junk, then another header", "Authorization: Bearer \(key)\u{0}junk\r\nHost: localhost\r\n"),
        ("alone", "Host: localhost\r\nAuthorization: Bearer \(key)\u{0}\r\n"),
        ("before the value", "Host: localhost\r\nAuthorization:\u{0} Bearer \(key)\r\n"),
    ])
    func aKeyWithANULIsRefused(_ kind: String, _ headers: String) async throws {
        let (server, directory) = try await InProcessServer.start()
        try await expectRefused(server, "GET /v1/apps HTTP/1.1\r\n\(headers)\r\n", code: "invalid_header", field: "Authorization")
        await server.shutdown()
        _ = directory
    }

    /// A NUL at the start of a line reads as one at the end of the line before (the same bytes
    /// once libmicrohttpd has parsed them): the field is then the header before.
    @Test(arguments: [
        ("Host: localhost\r\nX-Request-Id: abc\u{0}def\r\n", "x-request-id"),
        ("Host: localhost\r\n\u{0}X-Request-Id: abc\r\n", "host"),
    ])
    func aNULInAnyHeaderIsRefused(_ headers: String, _ field: String) async throws {
        let (server, directory) = try await InProcessServer.start()
        try await expectRefused(server, "GET /healthz HTTP/1.1\r\n\(headers)\r\n", code: "invalid_header", field: field)
        await server.shutdown()
        _ = directory
    }

    @Test func aNULInTheMethodIsRefused() async throws {
        let (server, directory) = try await InProcessServer.start()
        try await expectRefused(server, "GET\u{0}X /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\n\r\n", code: "invalid_method")
        await server.shutdown()
        _ = directory
    }

    @Test func aFoldedHeaderIsRefused() async throws {
        let (server, directory) = try await InProcessServer.start()
        try await expectRefused(server, "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Note: one\r\n two\r\n\r\n", code: "invalid_header")
        await server.shutdown()
        _ = directory
    }

    @Test(arguments: [
        ("Authorization", "Authorization: Bearer wrong-key\r\nAuthorization: Bearer \(key)\r\n"),
        ("Authorization", "authorization: Bearer \(key)\r\nAUTHORIZATION: Bearer \(key)\r\n"),
        ("Content-Type", "Authorization: Bearer \(key)\r\nContent-Type: text/plain\r\nContent-Type: application/json\r\n"),
        ("Idempotency-Key", "Authorization: Bearer \(key)\r\nIdempotency-Key: a\r\nIdempotency-Key: b\r\n"),
    ])
    func aRepeatedSecurityHeaderIsRefused(_ name: String, _ headers: String) async throws {
        let (server, directory) = try await InProcessServer.start()
        let body = #"{"name": "twice"}"#
        try await expectRefused(
            server, "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)",
            code: "duplicate_header", field: name)
        #expect(try await appNames(server) == [])
        await server.shutdown()
        _ = directory
    }

    @Test func aContentLengthOverWhatLibmicrohttpdReadsAsANumberIsOneJSON400() async throws {
        // 2^64 - 1 is libmicrohttpd's "unknown length": it would wait for a body that never ends.
        let (server, directory) = try await InProcessServer.start()
        try await expectRefused(
            server, "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\nContent-Length: 18446744073709551615\r\n\r\n",
            code: "invalid_content_length", field: "Content-Length")
        await server.shutdown()
        _ = directory
    }

    /// libmicrohttpd 0.9.75 answers these itself, before any callback of ours (its own HTML 400,
    /// or 413 for a number over 2^64, with its status line and headers written twice): what is
    /// checked is that the connection is closed and nothing after it runs; the JSON body is a
    /// known issue of that version. docs/server.md, "HTTP rules".
    @Test(arguments: ["abc", "-1", "1 2", "99999999999999999999999", "5, 5"])
    func aMalformedContentLengthClosesTheConnectionAndNothingRuns(_ value: String) async throws {
        let (server, directory) = try await InProcessServer.start()
        let client = RawHTTPClient(port: server.port)
        let response = try #require(await client.exchange(
            "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\nContent-Type: application/json\r\nContent-Length: \(value)\r\n\r\n"
                + #"{"name": "a"}"# + Self.createApp("smuggled")))
        #expect(response.status == 400 || response.status == 413)
        #expect(response.headers["connection"]?.lowercased() == "close")
        withKnownIssue("libmicrohttpd 0.9.75 answers a malformed Content-Length with its own HTML") {
            #expect(response.headers["content-type"] == "application/json")
        }
        #expect(await client.nextResponse() == nil)
        #expect(try await appNames(server) == [])
        await server.shutdown()
        _ = directory
    }

    @Test func plainRequestsStillShareAConnection() async throws {
        let (server, directory) = try await InProcessServer.start()
        let client = RawHTTPClient(port: server.port)
        let created = try #require(await client.exchange(Self.createApp("kept")))
        #expect(created.status == 201)
        #expect(created.headers["connection"]?.lowercased() != "close")
        let chunkedBody = #"{"name": "chunked"}"#
        let chunked = try #require(await client.exchange(
            "POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.key)\r\nContent-Type: application/json; charset=utf-8\r\n"
                + "Transfer-Encoding: chunked\r\nX-Empty:\r\nX-Blanks: \t a b \t\r\n\r\n\(String(chunkedBody.utf8.count, radix: 16))\r\n\(chunkedBody)\r\n0\r\n\r\n"))
        #expect(chunked.status == 201)
        let health = try #require(await client.exchange("GET /healthz?probe=%41 HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        #expect(health.status == 200)
        #expect(try await appNames(server).sorted() == ["chunked", "kept"])
        await server.shutdown()
        _ = directory
    }
}
