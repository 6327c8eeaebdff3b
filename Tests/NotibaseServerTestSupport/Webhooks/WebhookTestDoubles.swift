import Foundation
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
import Synchronization

/// A resolver that answers from a script: each host's answers in turn (the last one repeats), and
/// counts the lookups.
final class ScriptedResolver: WebhookResolver {
    private let answers: Mutex<[String: [[String]]]>
    private let counts = Mutex<[String: Int]>([:])

    init(_ answers: [String: [[String]]]) {
        self.answers = Mutex(answers)
    }

    func addresses(of host: String) async -> [IPAddress] {
        let lookup = counts.withLock { counts in
            defer { counts[host, default: 0] += 1 }
            return counts[host, default: 0]
        }
        let texts = answers.withLock { answers in answers[host].map { $0[min(lookup, $0.count - 1)] } ?? [] }
        return texts.compactMap { IPAddress($0) }
    }

    func lookups(of host: String) -> Int { counts.withLock { $0[host, default: 0] } }
}

/// A resolver that reads queries and never answers (within a test's time): a DNS server that
/// drops them, as a hostile tenant's names can make the system's resolver wait for a minute.
struct SilentResolver: WebhookResolver {
    func addresses(of host: String) async -> [IPAddress] {
        try? await Task.sleep(for: .seconds(600))
        return []
    }
}

/// The HTTPS receiver of `Peers/webhook_receiver.py` on a loopback port, with its own certificate
/// authority (`caFile`). Stopped when released.
final class WebhookReceiver: Sendable {
    let port: Int
    let directory: TemporaryDirectory
    private let child: ChildProcess

    var caFile: String { directory.path + "/ca.pem" }

    /// Whether it speaks http (`--plain`), for `notibase serve --webhook-allow-insecure`.
    let plain: Bool

    /// `https://127.0.0.1:<port><path>` (`http` when plain).
    func url(_ path: String) -> String { "\(plain ? "http" : "https")://127.0.0.1:\(port)\(path)" }

    /// Starts the receiver, verifying signatures under `secrets`; returns once it listens. The wait
    /// happens on a Dispatch thread, not on Swift's cooperative pool.
    static func start(secrets: [String] = [], plain: Bool = false) async throws -> WebhookReceiver {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try WebhookReceiver(secrets: secrets, plain: plain) }) }
        }
    }

    private init(secrets: [String], plain: Bool) throws {
        directory = TemporaryDirectory("notibase-webhook-receiver")
        self.plain = plain
        let program = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/webhook_receiver.py").path
        let arguments = ["--state-dir", directory.path] + secrets.flatMap { ["--secret", $0] } + (plain ? ["--plain"] : [])
        child = try ChildProcess(TestProducts.python, TestProducts.pythonArguments(program, arguments))
        let line = try child.readLine(timeout: .seconds(60)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix("READY "), let port = Int(line.dropFirst(6)) else {
            throw ChildProcessError(message: "the webhook receiver did not start (run script/bootstrap --tests for standardwebhooks and svix): \(line)")
        }
        self.port = port
    }

    deinit { child.stop(signal: SIGKILL) }

    /// What the receiver logged, one object per request.
    func log() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: directory.path + "/log.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The secret `/events` verifies under (an endpoint's, known once it exists).
    func verify(under secret: String) throws {
        try secret.write(toFile: directory.path + "/secret", atomically: true, encoding: .utf8)
    }

    /// What `/events` does to the next requests, one each, in order ("500", "hang", "close-mid",
    /// "429:SECONDS"; anything else verifies and stores); then it verifies and stores.
    func misbehave(_ faults: [String]) throws {
        try JSONSerialization.data(withJSONObject: faults).write(to: URL(fileURLWithPath: directory.path + "/faults.json"), options: .atomic)
    }

    /// Answers every batch `/events` verifies only after `seconds` (a slow receiver: batches stay
    /// in flight).
    func slowDown(_ seconds: Double) throws {
        try String(seconds).write(toFile: directory.path + "/delay", atomically: true, encoding: .utf8)
    }

    /// The faults not taken yet.
    func faultsLeft() -> [String] {
        guard let data = FileManager.default.contents(atPath: directory.path + "/faults.json") else { return [] }
        return (try? JSONSerialization.jsonObject(with: data) as? [String]) ?? []
    }

    /// The logged requests to `path`.
    func requests(to path: String) -> [[String: Any]] {
        log().filter { $0["event"] as? String == "request" && $0["path"] as? String == path }
    }
}
