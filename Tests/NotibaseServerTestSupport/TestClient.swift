import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotibaseCore
import Testing

/// What a test body talks to the server through: straight to its responder (``Harness``), or over
/// a socket (``SocketClient``: a harness's ``Harness/test(_:_:)`` over `.live`, a server started in
/// this process, a ``ServerProcess``). The same body runs either way.
protocol TestClient: Sendable {
    /// Sends a request; `body` is JSON text.
    func request(_ method: String, _ path: String, key: String?, body: String?, headers: [String: String]) async throws -> Reply
}

/// Where a harness's requests go.
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// To the responder, in this process, without a socket.
    case inProcess
    /// Over a TCP socket to the same responder behind the HTTP server.
    case live

    var testDescription: String { rawValue }
}

extension TestClient {
    func request(_ method: String, _ path: String, key: String?, body: String? = nil) async throws -> Reply {
        try await request(method, path, key: key, body: body, headers: [:])
    }

    /// A new app: its ID and keys. Identity verification is off unless asked for, so tests about
    /// other things can register user IDs with the client key alone.
    func createApp(_ name: String = "Test app", verifiesIdentity: Bool = false) async throws -> TestApp {
        let reply = try await request("POST", "/v1/apps", key: Harness.adminKey, body: #"{"name": "\#(name)", "requireIdentityVerification": \#(verifiesIdentity)}"#)
        guard reply.status == 201, let id = reply["id"].string, let server = reply["serverKey"].string, let client = reply["clientKey"].string else {
            throw HarnessError("creating an app answered \(reply.status): \(reply.text)")
        }
        return TestApp(id: id, serverKey: server, clientKey: client)
    }

    /// Registers a device with a token made from `number` (``Harness/token(_:_:)``); returns its ID.
    @discardableResult
    func registerDevice(_ app: TestApp, number: Int, platform: Platform = .ios, extra: String = "") async throws -> String {
        let reply = try await request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "\#(platform.rawValue)", "token": "\#(Harness.token(number, platform))"\#(extra)}"#)
        guard reply.status == 201 || reply.status == 200, let id = reply["id"].string else {
            throw HarnessError("registering a device answered \(reply.status): \(reply.text)")
        }
        return id
    }

    /// Sends a message; returns its ID.
    func send(_ app: TestApp, _ body: String) async throws -> String {
        let reply = try await request("POST", "/v1/messages", key: app.serverKey, body: body)
        guard reply.status == 202, let id = reply["id"].string else { throw HarnessError("sending answered \(reply.status): \(reply.text)") }
        return id
    }
}

/// A client over HTTP to a server listening on 127.0.0.1.
struct SocketClient: TestClient {
    let port: Int

    func request(_ method: String, _ path: String, key: String?, body: String?, headers: [String: String]) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let key { request.setValue("Bearer " + key, forHTTPHeaderField: "Authorization") }
        if let body {
            if headers["Content-Type"] == nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
            request.httpBody = Data(body.utf8)
        }
        // In a task of its own, which the caller's cancellation does not reach: on Linux, cancelling
        // a task inside URLSession.data(for:) while its answer arrives deadlocks (the cancel waits
        // on the session's queue, which waits on the task's lock), as a load loop that a test
        // cancels does.
        let (data, response) = try await Task { [request] in try await URLSession.shared.data(for: request) }.value
        guard let http = response as? HTTPURLResponse else { throw HarnessError("\(method) \(path) got no HTTP answer") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers["\(name)".lowercased()] = "\(value)" }
        return Reply(status: http.statusCode, headers: headers, body: data)
    }
}
