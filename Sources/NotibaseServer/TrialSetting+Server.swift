package import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
package import NotibaseDelivery
extension TrialSetting {
    /// The settings a server started with `configuration` and `senders` runs in, in a fixed order.
    package static func settings(_ configuration: ServerConfiguration, senders: SenderSet) -> [TrialSetting] {
        allCases.filter { setting in
            setting == .webhookAllowInsecure ? configuration.webhookAllowInsecure : senders.trialSetting == setting
        }
    }
}
