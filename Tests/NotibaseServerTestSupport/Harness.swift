import Foundation
import NotibaseCore
import NotibaseSenders
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
import NotibaseTestSupport

/// The server's parts in one process, wired by ``ServerParts/make(store:configuration:senders:secretKey:adminKeyHash:logger:clock:doctor:options:)``
/// as `notibase serve` wires them: requests go straight to the responder (``request(_:_:key:body:headers:)``),
/// or, inside ``test(_:_:)`` over `.live`, over a socket to the same responder; the fan-out and the
/// workers run when the test says. Time is a settable clock.
final class Harness: TestClient {
    static let adminKey = "nb_admin_SfdWRjrZ3Pubat5U19bxVHbnIU9GpltLDFXUaEWxL3A"
    static let secretKey = [UInt8](repeating: 7, count: 32)

    /// What the server signs with: receipts, identity tokens.
    let signer = Signer(secretKey: Harness.secretKey)

    let directory: String
    let store: any Storage & RowCounting
    private let finishStore: @Sendable () -> Void
    let responder: APIResponder
    /// What a server wires over its store (``ServerParts``): the services, the signals, the
    /// handoff, the fan-out and the workers; the test runs the loops a step at a time.
    let parts: ServerParts
    var fanOut: FanOut { parts.fanOut }
    var worker: DeliveryWorker { parts.worker }
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    let time = ManualClock(Harness.start)
    var metrics: Metrics { parts.metrics }
    private let maxBodyBytes: Int

    /// `quickHandlers: false` runs every route's handler in a task: the reference for the quick
    /// paths.
    init(
        sender: any Sender = ScriptedSender(), rates: [KeyKind: Int] = [:], policy: RetryPolicy = RetryPolicy(), batchSize: Int = 500,
        logger: Logger = .silent, quickHandlers: Bool = true, acceptsAnyFCMTokenURI: Bool = false, busyTimeout: Int32 = 5_000,
        doctor: (any PayloadDoctor)? = nil, messagesPerMinute: Int = ServerConfiguration.Limits().appMessagesPerMinute, plans: QueryPlans? = nil,
        storedBytes: Int = ServerConfiguration.Limits().appStoredBytes, storedCredentials: Bool = false, handoff: Handoff? = nil,
        webhookTransport: (any WebhookTransport)? = nil
    ) async throws {
        directory = NSTemporaryDirectory() + "notibase-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The history's partitions for the harness's time (PostgreSQL), as a server makes them for its own.
        let opened = try await TestDatabase.open(
            directory: directory, busyTimeout: busyTimeout, now: Int(Harness.start.timeIntervalSince1970 * 1000), plans: plans)
        store = opened.store
        finishStore = opened.finish
        let store = self.store
        let time = self.time
        var configuration = ServerConfiguration()
        configuration.limits.rates = rates
        configuration.limits.acceptsAnyFCMTokenURI = acceptsAnyFCMTokenURI
        configuration.limits.appStoredBytes = storedBytes
        configuration.limits.appMessagesPerMinute = messagesPerMinute
        configuration.delivery.batchSize = batchSize
        configuration.delivery.fanOutBatchSize = 1_000
        maxBodyBytes = configuration.limits.maxBodyBytes
        // Rate limits on a stopped clock: no bucket refills while a test runs, however slowly. The
        // message quota refills as the test's clock moves (``advance(_:)``).
        let start = ContinuousClock.now
        var options = ServerParts.Options()
        options.policy = policy
        options.fanOutMinimumBatchSize = nil
        options.handoff = handoff
        options.webhookTransport = webhookTransport
        options.rateClock = { start }
        options.quotaClock = { start + .milliseconds(Int(time.now.timeIntervalSince(Harness.start) * 1000)) }
        // With `storedCredentials` the workers send with each app's uploaded credentials (and
        // track their health), as a server with the real senders does.
        let senders = SenderSet(ios: sender, android: sender, credentials: storedCredentials ? .stored : .notRequired)
        parts = try ServerParts.make(
            store: store, configuration: configuration, senders: senders, secretKey: Self.secretKey, adminKeyHash: try APIKey.hash(Self.adminKey),
            logger: logger, clock: time.wallClock, doctor: doctor, options: options)
        responder = APIResponder(context: parts.context, accessLog: true, quickHandlers: quickHandlers)
    }

    /// Every test that used a harness ends with the storage integrity check: whatever it did, no
    /// orphan, dangling reference or contradiction may be left behind.
    deinit {
        finishStore()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Moves the clock forward.
    func advance(_ seconds: TimeInterval) {
        time.advance(seconds: seconds)
    }

    /// Sends a request; `body` is JSON text. It takes the path the server would take (a quick
    /// handler, or a task).
    func request(_ method: String, _ path: String, key: String?, body: String? = nil, headers: [String: String] = [:]) async -> Reply {
        var allHeaders = headers
        if let key { allHeaders["Authorization"] = "Bearer " + key }
        if body != nil && allHeaders["Content-Type"] == nil { allHeaders["Content-Type"] = "application/json" }
        var path = path
        var query: [String: String] = [:]
        if let mark = path.firstIndex(of: "?") {
            for pair in path[path.index(after: mark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                query[parts[0]] = parts.count > 1 ? parts[1].removingPercentEncoding : ""
            }
            path = String(path[..<mark])
        }
        let request = HTTPRequest(method: method, path: path, query: query, headers: allHeaders, body: Array((body ?? "").utf8))
        return Reply(await responder.response(to: request))
    }

    /// Runs `body` with a client over `transport`: this harness itself, or a socket to its
    /// responder behind the HTTP server (on 127.0.0.1, a free port, stopped when `body` returns), as
    /// Hummingbird's `app.test(.router | .live)` does.
    func test<Value>(_ transport: Transport, _ body: (any TestClient) async throws -> Value) async throws -> Value {
        switch transport {
        case .inProcess:
            return try await body(self)
        case .live:
            var options = HTTPServer.Options(host: "127.0.0.1", port: 0, maxBodyBytes: maxBodyBytes)
            options.logger = .silent
            let server = try HTTPServer(options: options, responder: responder)
            do {
                let value = try await body(SocketClient(port: server.port))
                await server.shutdown()
                return value
            } catch {
                await server.shutdown()
                throw error
            }
        }
    }

    /// A device token made from `number`: 64 hex digits for iOS, an FCM-like one for Android.
    static func token(_ number: Int, _ platform: Platform = .ios) -> String {
        let hex = String(format: "%064x", number)
        return platform == .ios ? hex : "fcm-" + hex.suffix(24)
    }

    /// Registers `count` iOS devices straight into the store (tokens and identifiers from `first`).
    func registerDevices(_ count: Int, in app: TestApp, first: Int = 1) async throws {
        let now = Int(time.now.timeIntervalSince1970 * 1000)
        let devices = try (first..<first + count).map {
            (DeviceUpsert(platform: .ios, token: Self.token($0)), newID: try Identifier.make(milliseconds: now + $0))
        }
        #expect(try await store.registerDevices(appID: app.id, devices, now: now) == count)
    }

    /// One device registered, a message sent to it and delivered: its delivery's and message's IDs.
    func sentDelivery(_ app: TestApp, message body: String = #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#) async throws -> (delivery: String, message: String) {
        try await registerDevice(app, number: 1)
        let message = try await send(app, body)
        try await deliverDue()
        guard let delivery = await request("GET", "/v1/messages/\(message)/deliveries", key: app.serverKey)["items"][0]["id"].string else {
            throw HarnessError("the message was not delivered")
        }
        return (delivery, message)
    }

    /// Runs the fan-out and then the workers until nothing is due now.
    func deliverDue() async throws {
        try await fanOut.runOnce()
        while try await worker.runOnce() > 0 {}
    }
}

struct TestApp: Sendable {
    var id: String
    var serverKey: String
    var clientKey: String
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A response with its JSON body parsed.
struct Reply: Sendable {
    var status: Int
    var headers: [String: String]
    var text: String
    var json: JSONValue

    init(_ response: HTTPResponse) {
        status = response.status
        headers = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        text = response.text
        json = (try? JSONDecoder().decode(JSONValue.self, from: Data(response.body))) ?? .null
    }

    init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        text = String(decoding: body, as: UTF8.self)
        json = (try? JSONDecoder().decode(JSONValue.self, from: body)) ?? .null
    }

    subscript(_ key: String) -> JSONValue { json[key] }

    /// The error code of an error answer.
    var errorCode: String? { json["error"]["code"].string }
}

