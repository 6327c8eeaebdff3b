import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotibaseCore
import NotibaseServer
import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery
import NotibaseSenders
import NotibaseSimulator
import NotibaseExtension
import NotibaseTestSupport
@testable import Notibase

/// A live Notibase server (the same code as `notibase serve`, on a real port, in this process) whose
/// pushes go to simulated phones running the real extension, and an app created on it.
final class LiveWorld: Sendable {
    static let adminKey = "nb_admin_T7xyAsHwIzQ72d641swEIw9txSmN9pB_Lnzo1i9chc4"

    let files = TemporaryDirectory("notibase-live")
    let server: Server
    let dataDirectory: String
    let fleet: SimulatedFleet
    let serverURL: URL
    let appID: String
    let serverKey: String
    let clientKey: String

    private init(server: Server, dataDirectory: String, fleet: SimulatedFleet, appID: String, serverKey: String, clientKey: String) {
        self.dataDirectory = dataDirectory
        self.server = server
        self.fleet = fleet
        serverURL = URL(string: "http://127.0.0.1:\(server.port)")!
        self.appID = appID
        self.serverKey = serverKey
        self.clientKey = clientKey
    }

    /// Starts a server (on `port`, 0 for any) with simulated phones, and creates an app.
    static func start(port: Int = 0, dataDirectory: URL? = nil) async throws -> LiveWorld {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-live-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.port = port
        configuration.dataDirectory = (dataDirectory ?? files.appendingPathComponent("data")).path
        configuration.adminKey = adminKey
        configuration.accessLog = false
        configuration.delivery.pollInterval = .milliseconds(10)
        let fleet = SimulatedFleet(directory: files.appendingPathComponent("phones"))
        let sender = SimulatedSender(fleet: fleet)
        let server = try await Server.start(
            configuration, senders: SenderSet(ios: sender, android: sender, credentials: .notRequired),
            logger: Logger(minimumLevel: .error, sink: { _ in }))
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        let app = try await call(url, "POST", "/v1/apps", key: adminKey, body: ["name": "Live"])
        guard let id = app["id"].string, let serverKey = app["serverKey"].string, let clientKey = app["clientKey"].string else {
            throw ChildProcessError(message: "the app came back without keys: \(app)")
        }
        fleet.receiptEndpoint = ReceiptEndpoint(serverURL: url, clientKey: clientKey)
        return LiveWorld(server: server, dataDirectory: configuration.dataDirectory, fleet: fleet, appID: id, serverKey: serverKey, clientKey: clientKey)
    }

    /// A client (the app's SDK) for a simulated iPhone, in `timeZone` (this machine's by default).
    func client(
        for phone: SimulatedIPhone, retryDelay: Duration = .milliseconds(100), timeZone: @escaping @Sendable () -> String = { TimeZone.current.identifier },
        pushEnvironment: PushEnvironment? = nil
    ) -> NotibaseClient {
        var configuration = NotibaseConfiguration(
            serverURL: serverURL, clientKey: clientKey, sharedDirectory: phone.sharedDirectory,
            stateDirectory: phone.sharedDirectory.appendingPathComponent("app"))
        configuration.initialRetryDelay = retryDelay
        configuration.maximumRetryDelay = .seconds(1)
        configuration.pushEnvironment = pushEnvironment
        return NotibaseClient(configuration: configuration, center: phone.device.center, timeZone: timeZone)
    }

    func call(_ method: String, _ path: String, key: String? = nil, body: JSONValue? = nil) async throws -> JSONValue {
        try await Self.call(serverURL, method, path, key: key ?? serverKey, body: body)
    }

    /// Polls `path` until `condition` holds on its answer.
    func waitFor(_ path: String, timeout: Duration = .seconds(15), _ condition: (JSONValue) -> Bool) async throws -> JSONValue {
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer = try await call("GET", path)
            if condition(answer) { return answer }
            guard ContinuousClock.now < deadline else { throw ChildProcessError(message: "\(path) never met the condition: \(answer)") }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    static func call(_ base: URL, _ method: String, _ path: String, key: String, body: JSONValue? = nil) async throws -> JSONValue {
        try await APIClient(baseURL: base).call(method, path, key: key, body: body)
    }

    /// Shuts the server down and checks what it left in its database (`notibase serve --check`).
    func stop() async {
        await server.shutdown()
        do {
            let problems = try await Server.integrityProblems(dataDirectory: dataDirectory)
            if !problems.isEmpty { Issue.record("the server left inconsistent data: \(problems.joined(separator: "; "))") }
        } catch {
            Issue.record("the storage integrity check failed: \(error)")
        }
    }
}
