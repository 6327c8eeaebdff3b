import Foundation
package import NotibaseSenders
import Synchronization
package import NotibaseDomain
package import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
package import NotibaseAPI
package import NotibaseDelivery

/// A running Notibase server: the HTTP API, the fan-out loop, the delivery workers and retention
/// over one database (``Storage``: embedded SQLite, or PostgreSQL shared by several nodes). Built by ``start(_:senders:logger:clock:)``; stopped by ``shutdown()``.
package final class Server: Sendable {
    /// The port the API listens on.
    package let port: Int
    /// The admin key this start created, to be shown once; nil when it already existed.
    package let newAdminKey: String?
    /// The settings for tests and demos it runs with (each announced in its log at start).
    package let trialSettings: [TrialSetting]
    /// The metrics the server records (also served at `/metrics`).
    package let metrics: Metrics

    private let http: HTTPServer
    private let store: any BackendStore
    private let senders: SenderSet
    private let logger: Logger
    private let background: Mutex<[Task<Void, Never>]>
    private let shutdownGrace: Duration

    /// Where the API, the delivery workers and the fan-out wait for the same store, an actor runs
    /// what is queued with regard to priority (often, not always: in a test of three calls queued on a
    /// busy store, the highest went first in two runs of three). The workers run above the fan-out: their claim
    /// or record does not wait for the fan-out batches queued before it, so what is written goes
    /// out sooner, and the next claim (with a message just posted in its shares) comes sooner. They
    /// cannot hold the fan-out back for long: a worker calls the store only while deliveries are
    /// due, and those are what the fan-out wrote. Requests come from outside and have no such bound,
    /// so they do not outrank anything: a priority above the loops let a flood of `GET`s stop every
    /// delivery (measured: nothing sent in 15 s), where at the fan-out's they share its turn.
    package static let requestPriority = APIResponder.requestPriority
    /// The delivery workers.
    package static let deliveryPriority = TaskPriority.medium
    /// The fan-out and retention.
    package static let backgroundPriority = TaskPriority.utility

    private init(
        port: Int, newAdminKey: String?, trialSettings: [TrialSetting], metrics: Metrics, http: HTTPServer, store: any BackendStore, senders: SenderSet, logger: Logger,
        background: [Task<Void, Never>], shutdownGrace: Duration
    ) {
        self.shutdownGrace = shutdownGrace
        self.port = port
        self.newAdminKey = newAdminKey
        self.trialSettings = trialSettings
        self.metrics = metrics
        self.http = http
        self.store = store
        self.senders = senders
        self.logger = logger
        self.background = Mutex(background)
    }

    /// Opens (or creates) the data directory and database, makes sure an admin key exists, and
    /// starts serving and delivering with `senders`. `doctor` answers what an iPhone would draw in
    /// `POST /v1/preview` (the command line hands in `notibase preview`'s).
    package static func start(
        _ configuration: ServerConfiguration, senders: SenderSet, logger: Logger, clock: WallClock = .system, doctor: (any PayloadDoctor)? = nil
    ) async throws -> Server {
        // The shipped resources (the OpenAPI document, the console's files), read now: a binary
        // deployed without them stops here, saying where it looked, instead of at its first request.
        _ = try ResourceDirectory.current.get()
        _ = OpenAPIDocument.bytes
        _ = Console.files
        let directory = configuration.dataDirectory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = try await openStorage(configuration, logger: logger)
        let secret = try secretKey(configuration, directory: directory)
        let (adminHash, newAdminKey) = try await adminKey(configuration, store: store)
        let parts = try ServerParts.make(
            store: store, configuration: configuration, senders: senders, secretKey: secret, adminKeyHash: adminHash, logger: logger, clock: clock, doctor: doctor)
        var options = HTTPServer.Options(host: configuration.host, port: configuration.port, maxBodyBytes: configuration.limits.maxBodyBytes)
        options.logger = logger
        options.connections = try ConnectionLimits(configuration.connections)
        options.bodiesInFlightBytes = configuration.connections.bodiesInFlightBytes
        if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            options.tlsCertificatePEM = try String(contentsOfFile: certificate, encoding: .utf8)
            options.tlsKeyPEM = try String(contentsOfFile: key, encoding: .utf8)
        } else if configuration.tlsCertificatePath != nil || configuration.tlsKeyPath != nil {
            throw ConfigurationError("HTTPS needs both a certificate and a key (--tls-cert and --tls-key)")
        }
        let http = try HTTPServer(options: options, responder: APIResponder(context: parts.context, accessLog: configuration.accessLog))

        let background = parts.start()
        let trial = TrialSetting.settings(configuration, senders: senders)
        for setting in trial {
            logger.warning("trial setting: not for production", ["setting": .string(setting.option), "consequence": .string(setting.consequence)])
        }
        logger.info("serving", [
            "address": .string("\(options.tlsKeyPEM == nil ? "http" : "https")://\(configuration.host):\(http.port)"),
            "dataDirectory": .string(directory),
        ])
        return Server(
            port: http.port, newAdminKey: newAdminKey, trialSettings: trial, metrics: parts.metrics, http: http, store: store, senders: senders,
            logger: logger, background: background, shutdownGrace: configuration.connections.shutdownGrace)
    }

    /// Stops accepting requests, lets those in flight finish for the shutdown grace and answers
    /// the rest 503, lets the workers finish and record the batch they hold (what is not recorded
    /// returns when its lease ends), stops the senders and checkpoints the database.
    package func shutdown() async {
        logger.info("shutting down")
        await http.shutdown(grace: shutdownGrace)
        let tasks = background.withLock { tasks in defer { tasks = [] }; return tasks }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        await senders.ios.shutdown()
        await senders.android.shutdown()
        do {
            try await store.close()
        } catch {
            logger.warning("the database did not close cleanly; the next start recovers it", ["error": .string("\(error)")])
        }
        logger.info("stopped")
    }

    /// Checks the stored data of a data directory (its database, migrated first if older) and
    /// returns what is wrong: orphans, dangling references, contradictions. Empty when all is well.
    /// Safe beside a running server: it only reads (after migrating).
    package static func integrityProblems(dataDirectory: String) async throws -> [String] {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        return try await integrityProblems(configuration)
    }

    /// The same for the database `configuration` names (PostgreSQL, or SQLite in its directory).
    package static func integrityProblems(_ configuration: ServerConfiguration) async throws -> [String] {
        if configuration.databaseURL == nil {
            let path = configuration.dataDirectory + "/notibase.sqlite"
            guard FileManager.default.fileExists(atPath: path) else { throw ConfigurationError("there is no database at \(path)") }
        }
        let store = try await openStorage(configuration, logger: nil)
        let problems = try await store.integrityProblems()
        try? await store.close()
        return problems
    }

    /// The database `configuration` names: PostgreSQL at its URL, or SQLite in the data directory
    /// (checkpointed in the background when `logger` is given: a serving store).
    package static func openStorage(_ configuration: ServerConfiguration, logger: Logger?) async throws -> any Storage {
        guard let url = configuration.databaseURL else {
            return try SQLiteStore(path: configuration.dataDirectory + "/notibase.sqlite", checkpointLogger: logger)
        }
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw ConfigurationError("the database URL must start with postgres:// (postgres://user:password@host:5432/notibase)")
        }
        do {
            return try await PostgresStore(url: url, poolSize: configuration.databasePoolSize)
        } catch let error as StorageError {
            throw ConfigurationError("cannot use the database: \(error)")
        }
    }

    private static func secretKey(_ configuration: ServerConfiguration, directory: String) throws -> [UInt8] {
        if let text = configuration.secretKey {
            guard let data = Data(base64Encoded: text) else { throw ConfigurationError("the secret key must be base64 (for example: openssl rand -base64 32)") }
            return Array(data)
        }
        let path = directory + "/secret.key"
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw ConfigurationError("\(path) is not a base64 key; restore it from a backup")
            }
            return Array(data)
        }
        let key = try Crypto.randomBytes(32)
        guard FileManager.default.createFile(atPath: path, contents: Data((Data(key).base64EncodedString() + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigurationError("cannot write \(path)")
        }
        return key
    }
}
