import Foundation
@testable import NotibaseSenders
import NotibaseTestSupport

/// A Python HTTP/2-over-TLS peer (APNs or FCM, from `Peers/`) running on a loopback port with a
/// certificate authority made for this run. Stopped when released.
final class TestPeer: @unchecked Sendable {
    // @unchecked: everything is set once in init.

    enum Kind: String {
        case apns = "apns_peer.py"
        case fcm = "fcm_peer.py"
    }

    let port: Int
    let directory: URL
    private let child: ChildProcess

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
        let program = TestPeer.peersDirectory.appendingPathComponent(kind.rawValue).path
        child = try ChildProcess(TestProducts.python, TestProducts.pythonArguments(program, ["--state-dir", directory.path] + arguments))
        guard let line = try? child.readLine(timeout: .seconds(60)) else {
            throw PeerError("the \(kind) peer exited before it was ready (is h2/cryptography installed? run script/bootstrap --tests)")
        }
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6)) else { throw PeerError("unexpected peer output: \(text)") }
        self.port = port
    }

    deinit { stop() }

    /// Stops the peer process with SIGKILL and waits until it is gone.
    func stop() {
        child.stop(signal: SIGKILL)
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
