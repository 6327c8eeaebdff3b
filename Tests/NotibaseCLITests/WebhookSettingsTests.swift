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

/// `notibase serve --webhook-allow-insecure`: off unless the flag or its variable says so.
@Suite struct WebhookSettingsTests {
    private static func configuration(_ words: [String], _ environment: [String: String] = [:]) throws -> ServerConfiguration {
        try ServeCommand.Settings(arguments: try Arguments(words, spec: ServeCommand.options), environment: environment).configuration()
    }

    @Test func insecureWebhooksOnlyWhenAskedFor() throws {
        #expect(try Self.configuration([]).webhookAllowInsecure == false)
        #expect(try Self.configuration([], ["NOTIBASE_WEBHOOK_ALLOW_INSECURE": "yes please"]).webhookAllowInsecure == false)
        #expect(try Self.configuration(["--webhook-allow-insecure"]).webhookAllowInsecure)
        #expect(try Self.configuration([], ["NOTIBASE_WEBHOOK_ALLOW_INSECURE": "on"]).webhookAllowInsecure)
    }

    @Test func theHelpSaysItIsForDevelopmentAndTestsOnly() {
        let line = ServeCommand.usage.split(separator: "\n").drop { !$0.contains("--webhook-allow-insecure") }.prefix(2).joined()
        #expect(line.contains("development and tests only"))
    }
}
