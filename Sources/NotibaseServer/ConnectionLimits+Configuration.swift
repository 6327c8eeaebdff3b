import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
package import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery
extension ConnectionLimits {
    /// The limits `notibase serve` was given; throws for a trusted proxy that is not an address.
    package init(_ settings: ServerConfiguration.Connections) throws {
        self.init()
        total = settings.total
        perAddress = settings.perAddress
        reserved = min(settings.reserved, settings.total - 1)
        head = settings.headTimeout
        body = settings.bodyTimeout
        idle = settings.idleTimeout
        trustedProxies = Set(try settings.trustedProxies.map { text in
            guard let address = IPAddress(text) else {
                throw ConfigurationError("a trusted proxy must be an IP address such as 10.0.0.2 or fd00::2, not '\(text)'")
            }
            return address
        })
    }
}
