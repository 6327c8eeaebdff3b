import Foundation
package import NotibaseSenders
import Synchronization

/// A running Notibase server: the HTTP API, the fan-out loop, the delivery workers and retention
/// over one database (``Storage``: embedded SQLite, or PostgreSQL shared by several nodes). Built by ``start(_:senders:logger:clock:)``; stopped by ``shutdown()``.
package final class Server: Sendable {
    /// The port the API listens on.
    package let port: Int
    /// The admin key this start created, to be shown once; nil when it already existed.
    package let newAdminKey: String?
    /// The metrics the server records (also served at `/metrics`).
    let metrics: Metrics

    private let http: HTTPServer
    private let store: any Storage
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
    static let requestPriority = TaskPriority.utility
    /// The delivery workers.
    static let deliveryPriority = TaskPriority.medium
    /// The fan-out and retention.
    static let backgroundPriority = TaskPriority.utility

    private init(
        port: Int, newAdminKey: String?, metrics: Metrics, http: HTTPServer, store: any Storage, senders: SenderSet, logger: Logger,
        background: [Task<Void, Never>], shutdownGrace: Duration
    ) {
        self.shutdownGrace = shutdownGrace
        self.port = port
        self.newAdminKey = newAdminKey
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
        let box = try SecretBox(key: secret)
        let signer = Signer(secretKey: secret)
        let (adminHash, newAdminKey) = try await adminKey(configuration, store: store)
        let metrics = Metrics()
        let signals = WorkSignals()
        // On PostgreSQL other nodes' work wakes this one too, so it can look less often on its own.
        let listening = store.listen { signals.notify($0) }
        let monitor = CredentialMonitor(store: store, logger: logger, clock: clock)
        // A batch's worth for each worker waits at most.
        let handoff = Handoff(workers: configuration.delivery.workers, batchSize: configuration.delivery.batchSize)
        let context = APIContext(
            store: store, auth: Authenticator(store: store, adminKeyHash: adminHash), limiter: RateLimiter(rates: configuration.limits.rates),
            box: box, signer: signer, metrics: metrics, logger: logger, clock: clock, limits: configuration.limits, doctor: doctor,
            signals: signals, metricsTokenHash: try configuration.metricsToken.map { try Crypto.sha256($0.utf8) }, handoff: (handoff, configuration.delivery.lease),
            credentialMonitor: monitor, credentialsRequired: { if case .stored = senders.credentials { true } else { false } }())
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
        let http = try HTTPServer(options: options, responder: APIResponder(context: context, accessLog: configuration.accessLog))

        let delivery = configuration.delivery
        let fanOut = FanOut(store: store, clock: clock, logger: logger, metrics: metrics, batchSize: delivery.fanOutBatchSize,
            minimumBatchSize: BatchPacing.defaultMinimum, signals: signals, handoff: (handoff, delivery.lease))
        let worker = DeliveryWorker(
            store: store, senders: senders, vault: CredentialVault(store: store, box: box, clock: clock, logger: logger), clock: clock, logger: logger, metrics: metrics,
            signer: signer, options: DeliveryWorker.Options(batchSize: delivery.batchSize, lease: delivery.lease), signal: signals.delivery,
            handoff: handoff, monitor: monitor)
        let poll = listening ? max(delivery.pollInterval, ServerConfiguration.Delivery.listeningPollInterval) : delivery.pollInterval
        var background = [Task(priority: Self.backgroundPriority) { await fanOut.run(interval: poll) }]
        for _ in 0..<max(1, delivery.workers) {
            background.append(Task(priority: Self.deliveryPriority) { await worker.run(idle: poll) })
        }
        do {
            let probe = QueueDepthProbe(store: store, metrics: metrics, logger: logger)
            background.append(Task(priority: Self.backgroundPriority) { await probe.run(interval: configuration.queueDepthInterval) })
        }
        do {
            let retention = Retention(store: store, clock: clock, logger: logger, period: delivery.retention)
            background.append(Task(priority: Self.backgroundPriority) { await retention.run(interval: .seconds(60)) })
        }
        logger.info("serving", [
            "address": .string("\(options.tlsKeyPEM == nil ? "http" : "https")://\(configuration.host):\(http.port)"),
            "dataDirectory": .string(directory),
        ])
        return Server(
            port: http.port, newAdminKey: newAdminKey, metrics: metrics, http: http, store: store, senders: senders,
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
    static func openStorage(_ configuration: ServerConfiguration, logger: Logger?) async throws -> any Storage {
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

    private static func adminKey(_ configuration: ServerConfiguration, store: any Storage) async throws -> (hash: [UInt8], new: String?) {
        if let preset = configuration.adminKey {
            guard APIKey.isStrong(preset, .admin) else {
                throw ConfigurationError(
                    "NOTIBASE_ADMIN_KEY must be as strong as a generated key: nb_admin_ and 32 random bytes in base64url (43 characters), such as nb_admin_$(openssl rand 32 | basenc --base64url | tr -d =); start without it once to have one generated")
            }
            let hash = try APIKey.hash(preset)
            if try await !store.insertSettingIfAbsent("admin_key_hash", hash) {
                try await store.replaceSetting("admin_key_hash", hash)
            }
            return (hash, nil)
        }
        if let stored = try await store.setting("admin_key_hash") { return (stored, nil) }
        let key = try APIKey.generate(.admin)
        let hash = try APIKey.hash(key)
        _ = try await store.insertSettingIfAbsent("admin_key_hash", hash)
        return (hash, key)
    }
}
