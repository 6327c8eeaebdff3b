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
import NotibaseSenders
#if canImport(NotibaseSimulator)
import NotibaseSimulator
import NotibaseCore
#endif

extension ServeCommand {
    /// Reads `serve`'s options: a flag, else its environment variable, else the default.
    struct Settings {
        var arguments: Arguments
        var environment: [String: String]

        func value(_ option: String, _ variable: String) -> String? {
            arguments.value(option) ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        }

        func integer(_ option: String, _ variable: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
            guard let text = value(option, variable) else { return defaultValue }
            guard let number = Int(text), range.contains(number) else {
                throw UsageError("--\(option) (\(variable)) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }

        func configuration() throws -> ServerConfiguration {
            var configuration = ServerConfiguration()
            if let listen = value("listen", "NOTIBASE_LISTEN") {
                guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]) else {
                    throw UsageError("--listen takes HOST:PORT, such as 127.0.0.1:8080 or [::1]:8080, not '\(listen)'")
                }
                configuration.host = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                configuration.port = port
            }
            configuration.dataDirectory = value("data-dir", "NOTIBASE_DATA_DIR") ?? configuration.dataDirectory
            configuration.databaseURL = value("database", "NOTIBASE_DATABASE_URL")
            configuration.databasePoolSize = try integer("database-pool", "NOTIBASE_DATABASE_POOL", default: 8, in: 1...256)
            configuration.tlsCertificatePath = value("tls-cert", "NOTIBASE_TLS_CERT")
            configuration.tlsKeyPath = value("tls-key", "NOTIBASE_TLS_KEY")
            if let file = arguments.value("secret-key-file") {
                configuration.secretKey = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } else {
                configuration.secretKey = environment["NOTIBASE_SECRET_KEY"]
            }
            configuration.adminKey = environment["NOTIBASE_ADMIN_KEY"]
            configuration.limits.maxBodyBytes = try integer("max-body-bytes", "NOTIBASE_MAX_BODY_BYTES", default: 1 << 20, in: 1_024...(256 << 20))
            configuration.limits.rates = [
                .server: try integer("rate-limit-server", "NOTIBASE_RATE_LIMIT_SERVER", default: 1_000, in: 0...10_000_000),
                .client: try integer("rate-limit-client", "NOTIBASE_RATE_LIMIT_CLIENT", default: 10_000, in: 0...10_000_000),
                .admin: try integer("rate-limit-admin", "NOTIBASE_RATE_LIMIT_ADMIN", default: 100, in: 0...10_000_000),
            ]
            configuration.limits.appMessagesPerMinute = try integer(
                "app-messages-per-minute", "NOTIBASE_APP_MESSAGES_PER_MINUTE", default: 60_000, in: 0...100_000_000)
            configuration.limits.appStoredBytes = try integer(
                "app-stored-bytes", "NOTIBASE_APP_STORED_BYTES", default: 1 << 30, in: 0...(1 << 50))
            configuration.metricsToken = value("metrics-token", "NOTIBASE_METRICS_TOKEN")
            guard configuration.metricsToken?.isEmpty != true else {
                throw UsageError("--metrics-token takes a token (such as the output of openssl rand -hex 32), not an empty string")
            }
            try readConnections(into: &configuration.connections, maxBodyBytes: configuration.limits.maxBodyBytes)
            configuration.delivery.workers = try integer("workers", "NOTIBASE_WORKERS", default: 2, in: 1...64)
            configuration.delivery.batchSize = try integer("batch-size", "NOTIBASE_BATCH_SIZE", default: 1_000, in: 1...10_000)
            configuration.delivery.lease = .seconds(try integer("lease-seconds", "NOTIBASE_LEASE_SECONDS", default: 30, in: 1...3_600))
            configuration.delivery.fanOutBatchSize = try integer("fanout-batch", "NOTIBASE_FANOUT_BATCH", default: 5_000, in: 1...100_000)
            let retentionDays = try integer("retention-days", "NOTIBASE_RETENTION_DAYS", default: 30, in: 0...36_500)
            configuration.delivery.retention = retentionDays == 0 ? nil : .seconds(retentionDays * 86_400)
            if let level = value("log-level", "NOTIBASE_LOG_LEVEL") {
                guard let parsed = Logger.Level.allCases.first(where: { "\($0)" == level }) else {
                    throw UsageError("--log-level takes debug, info, warning or error, not '\(level)'")
                }
                configuration.logLevel = parsed
            }
            configuration.accessLog = !(arguments.flag("no-access-log") || environment["NOTIBASE_ACCESS_LOG"] == "off")
            configuration.webhookAllowInsecure = arguments.flag("webhook-allow-insecure") || environment["NOTIBASE_WEBHOOK_ALLOW_INSECURE"] == "on"
            configuration.limits.webhookEndpointsPerApp = try integer(
                "webhook-endpoints-per-app", "NOTIBASE_WEBHOOK_ENDPOINTS_PER_APP", default: 20, in: 1...10_000)
            configuration.limits.acceptsAnyFCMTokenURI = value("fcm-token-url", "NOTIBASE_FCM_TOKEN_URL") != nil
            return configuration
        }

        /// Connection limits, request deadlines and the shutdown grace.
        func readConnections(into connections: inout ServerConfiguration.Connections, maxBodyBytes: Int) throws {
            connections.total = try integer("max-connections", "NOTIBASE_MAX_CONNECTIONS", default: 10_000, in: 16...1_000_000)
            connections.perAddress = try integer(
                "max-connections-per-address", "NOTIBASE_MAX_CONNECTIONS_PER_ADDRESS", default: 256, in: 1...connections.total)
            connections.reserved = try integer("reserved-connections", "NOTIBASE_RESERVED_CONNECTIONS", default: min(1_000, connections.total / 10), in: 0...(connections.total - 1))
            connections.headTimeout = .seconds(try integer("head-timeout-seconds", "NOTIBASE_HEAD_TIMEOUT_SECONDS", default: 10, in: 1...3_600))
            connections.bodyTimeout = .seconds(try integer("body-timeout-seconds", "NOTIBASE_BODY_TIMEOUT_SECONDS", default: 30, in: 1...3_600))
            connections.idleTimeout = .seconds(try integer("idle-timeout-seconds", "NOTIBASE_IDLE_TIMEOUT_SECONDS", default: 60, in: 1...3_600))
            connections.bodiesInFlightBytes = try integer(
                "bodies-in-flight-bytes", "NOTIBASE_BODIES_IN_FLIGHT_BYTES", default: 128 << 20, in: maxBodyBytes...(1 << 40))
            connections.trustedProxies = (value("trusted-proxies", "NOTIBASE_TRUSTED_PROXIES") ?? "")
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            connections.shutdownGrace = .seconds(try integer("shutdown-grace-seconds", "NOTIBASE_SHUTDOWN_GRACE_SECONDS", default: 10, in: 0...3_600))
        }

        func senders() throws -> SenderSet {
            let kind = value("sender", "NOTIBASE_SENDER") ?? "providers"
            let uninstalled = tokens("simulated-uninstalled", "NOTIBASE_SIMULATED_UNINSTALLED")
            let throttled = tokens("simulated-throttled", "NOTIBASE_SIMULATED_THROTTLED")
            if kind != "simulated" && !(uninstalled.isEmpty && throttled.isEmpty) {
                throw UsageError("--simulated-uninstalled and --simulated-throttled need --sender simulated")
            }
            switch kind {
            case "providers":
                var apns = APNsSenderConfiguration()
                if let url = value("apns-url", "NOTIBASE_APNS_URL") {
                    apns.productionURL = url
                    apns.sandboxURL = url
                }
                if let url = value("apns-sandbox-url", "NOTIBASE_APNS_SANDBOX_URL") { apns.sandboxURL = url }
                apns.caFile = value("apns-ca", "NOTIBASE_APNS_CA")
                var fcm = FCMSenderConfiguration()
                if let url = value("fcm-url", "NOTIBASE_FCM_URL") { fcm.baseURL = url }
                fcm.tokenURL = value("fcm-token-url", "NOTIBASE_FCM_TOKEN_URL")
                fcm.caFile = value("fcm-ca", "NOTIBASE_FCM_CA")
                for file in [apns.caFile, fcm.caFile].compactMap({ $0 }) where !FileManager.default.isReadableFile(atPath: file) {
                    throw UsageError("the CA file \(file) cannot be read")
                }
                return SenderSet(ios: APNsSender(configuration: apns), android: FCMSender(configuration: fcm), credentials: .stored)
            case "simulated":
                #if canImport(NotibaseSimulator)
                let fleet = SimulatedFleet(directory: FileManager.default.temporaryDirectory.appendingPathComponent("notibase-fleet"), receiptEndpoint: nil)
                for token in uninstalled { fleet.uninstall(token: token) }
                for token in throttled { fleet.throttle(token: token) }
                let sender = SimulatedSender(fleet: fleet)
                return SenderSet(ios: sender, android: sender, credentials: .notRequired, providerNames: [.ios: "simulated", .android: "simulated"],
                    trialSetting: .senderSimulated)
                #else
                throw UsageError("--sender simulated needs the simulator, which is built on Linux only")
                #endif
            case "accept":
                return .accepting(try AcceptingSender(recordPath: value("sender-record", "NOTIBASE_SENDER_RECORD")))
            case let other:
                throw UsageError("--sender takes providers, simulated or accept, not '\(other)'")
            }
        }

        /// A comma-separated list of device tokens.
        private func tokens(_ option: String, _ variable: String) -> [String] {
            (value(option, variable) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }
}

/// Waits for one of the given signals (which it takes over from their default action).
final class SignalWaiter {
    private let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// The next signal received.
    func next() async -> Int32 {
        for await number in stream { return number }
        return SIGTERM
    }
}
