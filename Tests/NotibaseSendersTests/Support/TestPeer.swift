import Foundation
@testable import NotibaseSenders

/// A Python HTTP/2-over-TLS peer (APNs or FCM, from `Peers/`) running on a loopback port with a
/// certificate authority made for this run. Stopped when released.
final class TestPeer: @unchecked Sendable {
    // @unchecked: the process and paths are set once in init; `stop` is idempotent through Process.

    enum Kind: String {
        case apns = "apns_peer.py"
        case fcm = "fcm_peer.py"
    }

    let port: Int
    let directory: URL
    private let process: Process
    private let input: Pipe

    /// `https://127.0.0.1:<port>`.
    var url: String { "https://127.0.0.1:\(port)" }
    /// The run's CA certificate, which the peer's server certificate chains to.
    var caFile: String { directory.appendingPathComponent("ca.pem").path }

    /// Starts the peer with `arguments` and an initial script; returns once it listens. The wait
    /// happens on a Dispatch thread, so parallel tests do not starve Swift's cooperative pool.
    static func start(_ kind: Kind, arguments: [String] = [], script: [String: Any] = [:]) async throws -> TestPeer {
        let box = UncheckedBox(script)
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try TestPeer(kind, arguments: arguments, script: box.value) })
            }
        }
    }

    private init(_ kind: Kind, arguments: [String], script: [String: Any]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scriptData = try JSONSerialization.data(withJSONObject: script)
        try scriptData.write(to: directory.appendingPathComponent("script.json"))
        process = Process()
        input = Pipe()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [TestPeer.python, TestPeer.peersDirectory.appendingPathComponent(kind.rawValue).path, "--state-dir", directory.path] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        // read(2), retried on EINTR: FileHandle.availableData traps when a signal (a child's
        // SIGCHLD) interrupts it.
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        let fd = output.fileHandleForReading.fileDescriptor
        while !line.contains(UInt8(ascii: "\n")) {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { throw PeerError("the \(kind) peer exited before it was ready (is h2/cryptography installed? run script/bootstrap --tests)") }
            line.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6)) else { throw PeerError("unexpected peer output: \(text)") }
        self.port = port
    }

    deinit { stop() }

    /// Stops the peer process with SIGKILL: a child started from a Dispatch thread inherits its
    /// blocked signals, so SIGTERM may never arrive. (Not `waitUntilExit`, which can hang off the
    /// main thread on Linux.)
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
    }

    /// Replaces the script (read by the peer before its next answer).
    func script(_ script: [String: Any]) throws {
        let temporary = directory.appendingPathComponent("script.json.new")
        try JSONSerialization.data(withJSONObject: script).write(to: temporary)
        guard rename(temporary.path, directory.appendingPathComponent("script.json").path) == 0 else {
            throw PeerError("could not replace the peer's script (errno \(errno))")
        }
    }

    /// Everything the peer logged: connections, requests (with their answers) and PINGs.
    func log() throws -> [[String: Any]] {
        let text = try String(contentsOf: directory.appendingPathComponent("log.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The logged requests.
    func requests() throws -> [[String: Any]] {
        try log().filter { $0["event"] as? String == "request" }
    }

    /// How many connections the peer accepted.
    func connectionCount() throws -> Int {
        try log().filter { $0["event"] as? String == "connect" }.count
    }

    /// Writes a file into the peer's directory and returns its path.
    func write(_ name: String, _ contents: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Reads a file the peer made (its client certificate and key, say).
    func read(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static var peersDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Peers")
    }

    /// `NOTIBASE_PYTHON`, else the package's `.build/venv/bin/python`, else `python3`.
    static var python: String {
        if let configured = ProcessInfo.processInfo.environment["NOTIBASE_PYTHON"], !configured.isEmpty { return configured }
        let root = peersDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let venv = root.appendingPathComponent(".build/venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }
}

/// Carries a JSON-like dictionary (plain values only) to another thread.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

struct PeerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
