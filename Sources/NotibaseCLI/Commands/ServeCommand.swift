import Foundation
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

/// `notibase serve`: runs the server until SIGTERM or SIGINT, then shuts down gracefully.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "run the Notibase server (HTTP API, delivery queue) on embedded SQLite or on PostgreSQL"
    static let usage = """
        notibase serve [options]

          Every option can also be set with the environment variable shown; a flag wins.
          --listen HOST:PORT        address to listen on (NOTIBASE_LISTEN, default 127.0.0.1:8080; port 0 picks one)
          --data-dir DIR            database and secret key directory (NOTIBASE_DATA_DIR, default ./data)
          --database URL            PostgreSQL instead of SQLite in --data-dir: postgres://user:password@host:5432/db
                                    (NOTIBASE_DATABASE_URL); every node on it needs the same secret key
          --database-pool N         connections to PostgreSQL (NOTIBASE_DATABASE_POOL, default 8)
          --tls-cert FILE           PEM certificate chain for HTTPS (NOTIBASE_TLS_CERT)
          --tls-key FILE            PEM private key for HTTPS (NOTIBASE_TLS_KEY)
          --secret-key-file FILE    base64 32-byte key that encrypts credentials (NOTIBASE_SECRET_KEY holds the
                                    key itself; default: DIR/secret.key, created on first start)
          --max-body-bytes N        largest request body (NOTIBASE_MAX_BODY_BYTES, default 1048576)
          --rate-limit-server N     requests/s per server key, 0 = none (NOTIBASE_RATE_LIMIT_SERVER, default 1000)
          --rate-limit-client N     requests/s per client key (NOTIBASE_RATE_LIMIT_CLIENT, default 10000)
          --rate-limit-admin N      requests/s for the admin key (NOTIBASE_RATE_LIMIT_ADMIN, default 100)
          --app-messages-per-minute N
                                    messages each app may create a minute, whichever key it uses, counted by
                                    each node; 0 = none (NOTIBASE_APP_MESSAGES_PER_MINUTE, default 60000)
          --app-stored-bytes N      bytes of stored messages (content and audience) each app may hold until
                                    retention removes them; 0 = none (NOTIBASE_APP_STORED_BYTES, default 1073741824)
          --metrics-token TOKEN     GET /metrics then needs Authorization: Bearer TOKEN (NOTIBASE_METRICS_TOKEN, which
                                    other users cannot read in the process list; default: /metrics needs no key)
          --max-connections N       connections at once (NOTIBASE_MAX_CONNECTIONS, default 10000)
          --max-connections-per-address N
                                    connections from one address (IPv4, or IPv6 /64), trusted proxies excepted, and
                                    requests in progress from one client address (NOTIBASE_MAX_CONNECTIONS_PER_ADDRESS,
                                    default 256)
          --reserved-connections N  of --max-connections, kept for addresses holding none (NOTIBASE_RESERVED_CONNECTIONS,
                                    default 1000)
          --head-timeout-seconds N  a request head must be complete N s after the connection opened, or on a kept-alive
                                    connection after its request line (NOTIBASE_HEAD_TIMEOUT_SECONDS, default 10)
          --body-timeout-seconds N  a body must be complete N s after its head (NOTIBASE_BODY_TIMEOUT_SECONDS, default 30)
          --idle-timeout-seconds N  a kept-alive connection's next request line must come within N s
                                    (NOTIBASE_IDLE_TIMEOUT_SECONDS, default 60)
          --bodies-in-flight-bytes N
                                    request body bytes held at once, all connections together; more is answered 503
                                    (NOTIBASE_BODIES_IN_FLIGHT_BYTES, default 134217728)
          --trusted-proxies LIST    comma-separated proxy addresses whose X-Forwarded-For names the client for the
                                    per-address request limit (NOTIBASE_TRUSTED_PROXIES, default none)
          --shutdown-grace-seconds N
                                    on SIGTERM, how long requests in progress may finish before the rest are answered
                                    503 (NOTIBASE_SHUTDOWN_GRACE_SECONDS, default 10)
          --workers N               delivery worker loops (NOTIBASE_WORKERS, default 2)
          --batch-size N            deliveries claimed per batch (NOTIBASE_BATCH_SIZE, default 1000)
          --lease-seconds N         how long a claim lasts (NOTIBASE_LEASE_SECONDS, default 30)
          --fanout-batch N          devices per fan-out transaction (NOTIBASE_FANOUT_BATCH, default 5000)
          --retention-days N        days a finished message's history is kept; 0 keeps it forever
                                    (NOTIBASE_RETENTION_DAYS, default 30)
          --sender KIND             providers (APNs and FCM), simulated or accept (NOTIBASE_SENDER, default providers)
          --sender-record FILE      with --sender accept: append every delivery ID accepted (NOTIBASE_SENDER_RECORD)
          --simulated-uninstalled TOKENS
                                    with --sender simulated, for tests and demos: comma-separated device tokens
                                    whose app is uninstalled, answered as APNs (410 Unregistered) and FCM (404
                                    UNREGISTERED) answer (NOTIBASE_SIMULATED_UNINSTALLED)
          --simulated-throttled TOKENS
                                    with --sender simulated, for tests and demos: comma-separated device tokens
                                    whose first push is refused as too many for the device (APNs 429
                                    TooManyRequests, FCM 429 QUOTA_EXCEEDED), retried as the real senders retry it
                                    (NOTIBASE_SIMULATED_THROTTLED)
          --apns-url URL            APNs host for both environments, for a test peer (NOTIBASE_APNS_URL)
          --apns-sandbox-url URL    APNs host for the sandbox only, instead of --apns-url's (NOTIBASE_APNS_SANDBOX_URL)
          --apns-ca FILE            CA certificates to trust for APNs instead of the system's (NOTIBASE_APNS_CA)
          --fcm-url URL             FCM base URL, for a test peer (NOTIBASE_FCM_URL)
          --fcm-token-url URL       OAuth token endpoint instead of Google's, for a test peer; uploads may then
                                    name any https token_uri (NOTIBASE_FCM_TOKEN_URL)
          --fcm-ca FILE             CA certificates to trust for FCM and its token endpoint (NOTIBASE_FCM_CA)
          --log-level LEVEL         debug, info, warning or error (NOTIBASE_LOG_LEVEL, default info)
          --no-access-log           do not log every request (NOTIBASE_ACCESS_LOG=off)
          --webhook-endpoints-per-app N
                                    webhook endpoints each app may have (NOTIBASE_WEBHOOK_ENDPOINTS_PER_APP,
                                    default 20)
          --webhook-allow-insecure  webhook endpoints may be http and loopback or private addresses: for
                                    development and tests only, never in production (NOTIBASE_WEBHOOK_ALLOW_INSECURE=on)
          --check                   check the stored data of --data-dir (orphans, dangling references) and exit:
                                    0 when all is well, 1 with every problem listed

          The first start makes the admin key and shows it once: on standard output when that is a terminal,
          else (under systemd, whose journal keeps what it is given) in DIR/admin.key, readable by this user
          only, with only the file's path printed and logged. notibase admin-key rotate makes a new one.

          NOTIBASE_ADMIN_KEY sets the admin key instead of generating one; it replaces a stored one at every
          start. It must be nb_admin_ and 32 random bytes in base64url (43 characters):
          nb_admin_$(openssl rand 32 | basenc --base64url | tr -d =)

          NOTIBASE_RESOURCES_DIR names the directory of the server's resources (openapi.json and the console's
          Files/); by default they are found from the binary (never the working directory): beside it in
          Notibase_NotibaseAPI.resources, or in ../share/notibase (/usr/share/notibase for /usr/bin/notibase).

          --sender accept sends nothing and accepts every push at once (benchmarks, crash tests). --sender simulated
          answers as APNs and FCM would and accepts every push (no phones attached; notibase demo attaches some), but
          for the tokens --simulated-uninstalled and --simulated-throttled name. Neither delivers anything to Apple or
          Google: with either, or with --webhook-allow-insecure, the server warns at start, /healthz lists the setting
          under "trial", /metrics sets notibase_trial_mode to 1 for it and the console shows a banner.
        """
    static let options: [OptionSpec] = [
        .value("listen"), .value("data-dir"), .value("database"), .value("database-pool"), .value("tls-cert"), .value("tls-key"), .value("secret-key-file"),
        .value("max-body-bytes"), .value("rate-limit-server"), .value("rate-limit-client"), .value("rate-limit-admin"), .value("app-messages-per-minute"), .value("app-stored-bytes"), .value("metrics-token"),
        .value("max-connections"), .value("max-connections-per-address"), .value("reserved-connections"), .value("head-timeout-seconds"),
        .value("body-timeout-seconds"), .value("idle-timeout-seconds"), .value("bodies-in-flight-bytes"), .value("trusted-proxies"),
        .value("shutdown-grace-seconds"),
        .value("workers"), .value("batch-size"), .value("lease-seconds"), .value("fanout-batch"), .value("retention-days"),
        .value("sender"), .value("sender-record"), .value("simulated-uninstalled"), .value("simulated-throttled"), .value("log-level"), .flag("no-access-log"), .flag("check"), .flag("webhook-allow-insecure"), .value("webhook-endpoints-per-app"),
        .value("apns-url"), .value("apns-sandbox-url"), .value("apns-ca"), .value("fcm-url"), .value("fcm-token-url"), .value("fcm-ca"),
    ]

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        try arguments.expectPositional(atMost: 0)
        let settings = Settings(arguments: arguments, environment: ProcessInfo.processInfo.environment)
        let configuration = try settings.configuration()
        if arguments.flag("check") {
            let problems = try await Server.integrityProblems(configuration)
            let place = configuration.databaseURL == nil ? configuration.dataDirectory : "the PostgreSQL database"
            guard !problems.isEmpty else {
                io.writeOutput("notibase: the data in \(place) is consistent\n")
                return 0
            }
            io.writeError("notibase: \(problems.count) problem\(problems.count == 1 ? "" : "s") in \(place):\n")
            for problem in problems { io.writeError("  \(problem)\n") }
            return 1
        }
        let logger = Logger(minimumLevel: configuration.logLevel)
        let senders = try settings.senders()

        let signals = SignalWaiter(signals: [SIGTERM, SIGINT])
        let server = try await Server.start(configuration, senders: senders, logger: logger, doctor: standardDoctor)
        // On standard output, beside "listening on": standard error carries the log's JSON lines
        // only (which say the same, as warnings), so that what reads the log reads every line.
        io.writeOutput(trialWarnings(server.trialSettings))
        if let key = server.newAdminKey {
            do {
                try AdminKeyNotice.deliver(key, event: "created the admin key", dataDirectory: configuration.dataDirectory, io: io, logger: logger)
            } catch {
                await server.shutdown()
                throw error
            }
        }
        let address = "\(configuration.tlsKeyPath == nil ? "http" : "https")://\(configuration.host):\(server.port)"
        io.writeOutput("notibase: listening on \(address)\n")
        io.writeOutput("notibase: the web console is at \(address)/console/\n")
        let signal = await signals.next()
        logger.info("signal received", ["signal": .int(Int(signal))])
        await server.shutdown()
        return 0
    }

    /// A paragraph on standard output for each setting for tests and demos the server runs with:
    /// which, and what it means (the log, on standard error, has the same as warnings).
    static func trialWarnings(_ settings: [TrialSetting]) -> String {
        settings.map { setting in
            "notibase: WARNING: \(setting.option) is set: \(setting.consequence). "
                + "It is for tests, demos and development only, never for production.\n"
        }.joined()
    }
}
