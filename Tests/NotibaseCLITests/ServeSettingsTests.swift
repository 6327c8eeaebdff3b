import Testing
@testable import NotibaseCLI
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

/// `notibase serve`'s limits: a flag, else its environment variable, else the default.
@Suite("notibase serve settings")
struct ServeSettingsTests {
    private static func settings(_ words: [String], _ environment: [String: String] = [:]) throws -> ServeCommand.Settings {
        ServeCommand.Settings(arguments: try Arguments(words, spec: ServeCommand.options), environment: environment)
    }

    @Test func appMessagesPerMinuteFromFlagEnvironmentOrDefault() throws {
        #expect(try Self.settings([]).configuration().limits.appMessagesPerMinute == 60_000)
        #expect(try Self.settings([], ["NOTIBASE_APP_MESSAGES_PER_MINUTE": "120"]).configuration().limits.appMessagesPerMinute == 120)
        let both = try Self.settings(["--app-messages-per-minute", "0"], ["NOTIBASE_APP_MESSAGES_PER_MINUTE": "120"])
        #expect(try both.configuration().limits.appMessagesPerMinute == 0)
        #expect(throws: UsageError.self) { try Self.settings(["--app-messages-per-minute", "-1"]).configuration() }
    }
}

@Suite("notibase serve --metrics-token")
struct MetricsTokenSettingsTests {
    private static func configuration(_ words: [String], _ environment: [String: String] = [:]) throws -> ServerConfiguration {
        try ServeCommand.Settings(arguments: try Arguments(words, spec: ServeCommand.options), environment: environment).configuration()
    }

    @Test func theTokenFromFlagOrEnvironmentAndNeverEmpty() throws {
        #expect(try Self.configuration([]).metricsToken == nil)
        #expect(try Self.configuration([], ["NOTIBASE_METRICS_TOKEN": "from-env"]).metricsToken == "from-env")
        #expect(try Self.configuration(["--metrics-token", "from-flag"], ["NOTIBASE_METRICS_TOKEN": "from-env"]).metricsToken == "from-flag")
        #expect(throws: UsageError.self) { try Self.configuration(["--metrics-token", ""]) }
    }
}
