import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotibaseServer
import Synchronization
import NotibaseCore

/// The built `notibase serve` running as a child process on a temporary data directory, for
/// tests that kill it or drive it from outside (crash test, Schemathesis).
final class ServerProcess: Sendable {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let adminKey = "nb_admin_process-test-admin-key-0123456789"

    let dataDirectory: String
    /// The PostgreSQL database it was started on (`--database`), if any.
    let databaseURL: String?
    let port: Int
    private let process: Process
    private let output: OutputBuffer
    private let errors: OutputBuffer?

    private init(dataDirectory: String, databaseURL: String?, port: Int, process: Process, output: OutputBuffer, errors: OutputBuffer?) {
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.port = port
        self.process = process
        self.output = output
        self.errors = errors
    }

    /// What it wrote to standard error so far, when started with `captureStandardError`.
    var standardErrorText: String { errors?.text ?? "" }

    /// Starts `notibase serve` with `arguments` (on 127.0.0.1, a free port) and waits until it
    /// listens. With `captureStandardError` its standard error (the log) is kept for
    /// ``standardErrorText`` instead of passed through.
    static func start(dataDirectory: String, arguments: [String], captureStandardError: Bool = false) async throws -> ServerProcess {
        let binary = packageRoot.appendingPathComponent(".build/debug/notibase").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw HarnessError("\(binary) is missing: run swift build first")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--data-dir", dataDirectory, "--no-access-log", "--log-level", "warning"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIBASE_ADMIN_KEY"] = adminKey
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        let output = OutputBuffer()
        pipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        var errors: OutputBuffer?
        if captureStandardError {
            let errorPipe = Pipe()
            process.standardError = errorPipe
            let buffer = OutputBuffer()
            errorPipe.fileHandleForReading.readabilityHandler = { handle in buffer.append(handle.availableData) }
            errors = buffer
        }
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && process.isRunning {
            let port = output.text.components(separatedBy: "\n").compactMap { line in
                line.range(of: "listening on http://127.0.0.1:").flatMap { Int(line[$0.upperBound...]) }
            }.first
            if let port {
                let database = arguments.firstIndex(of: "--database").map { arguments[$0 + 1] }
                return ServerProcess(dataDirectory: dataDirectory, databaseURL: database, port: port, process: process, output: output, errors: errors)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw HarnessError("notibase serve did not start: \(output.text)")
    }

    /// Kills the server at once (SIGKILL): no shutdown, no flush.
    func kill() async {
        Foundation.kill(process.processIdentifier, SIGKILL)
        await offPool { [process] in process.waitUntilExit() }
    }

    /// Stops it the polite way (SIGTERM), waits, and checks what it left: no orphan, dangling
    /// reference or contradiction in its database (`notibase serve --check`'s check).
    func terminate() async {
        process.terminate()
        await offPool { [process] in process.waitUntilExit() }
        do {
            var configuration = ServerConfiguration()
            configuration.dataDirectory = dataDirectory
            configuration.databaseURL = databaseURL
            let problems = try await Server.integrityProblems(configuration)
            if !problems.isEmpty { Issue.record("the server left inconsistent data: \(problems.joined(separator: "; "))") }
        } catch {
            Issue.record("the storage integrity check failed: \(error)")
        }
    }

    var isRunning: Bool { process.isRunning }

    /// What the server printed to standard output so far.
    var printed: String { output.text }

    /// A request over HTTP; `body` is JSON text.
    func request(_ method: String, _ path: String, key: String?, body: String? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let key { request.setValue("Bearer " + key, forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers["\(name)".lowercased()] = "\(value)" }
        return Reply(status: http.statusCode, headers: headers, body: data)
    }

    /// Creates an app with the admin key.
    func createApp() async throws -> TestApp {
        let reply = try await request("POST", "/v1/apps", key: Self.adminKey, body: #"{"name": "Process test"}"#)
        guard let id = reply["id"].string, let server = reply["serverKey"].string, let client = reply["clientKey"].string else {
            throw HarnessError("creating an app answered \(reply.status): \(reply.text)")
        }
        return TestApp(id: id, serverKey: server, clientKey: client)
    }
}

/// What a child process wrote to standard output.
final class OutputBuffer: Sendable {
    private let data = Mutex(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
