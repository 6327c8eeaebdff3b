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

/// `notibase serve` with a setting for tests and demos says so on standard output (and in the log,
/// on standard error): which setting, and what it means.
@Suite("Trial setting warnings")
struct TrialWarningTests {
    @Test func eachSettingIsNamedWithItsConsequence() throws {
        let text = ServeCommand.trialWarnings([.senderSimulated, .webhookAllowInsecure])
        let lines = text.split(separator: "\n")
        try #require(lines.count == 2)
        #expect(lines[0].contains("--sender simulated") && lines[0].contains("nothing is delivered to Apple or Google") && lines[0].contains("never for production"))
        #expect(lines[1].contains("--webhook-allow-insecure") && lines[1].contains("loopback and private addresses"))
        #expect(ServeCommand.trialWarnings([]).isEmpty)
    }

    @Test func theSettingsComeFromTheSenderAndTheWebhookFlag() throws {
        let arguments = try Arguments(["--sender", "simulated", "--webhook-allow-insecure"], spec: ServeCommand.options)
        let settings = ServeCommand.Settings(arguments: arguments, environment: [:])
        #expect(try settings.senders().trialSetting == .senderSimulated)
        #expect(try settings.configuration().webhookAllowInsecure)
        let accepting = ServeCommand.Settings(arguments: try Arguments([], spec: ServeCommand.options), environment: ["NOTIBASE_SENDER": "accept"])
        #expect(try accepting.senders().trialSetting == .senderAccept)
        let providers = ServeCommand.Settings(arguments: try Arguments([], spec: ServeCommand.options), environment: [:])
        #expect(try providers.senders().trialSetting == nil)
    }
}
