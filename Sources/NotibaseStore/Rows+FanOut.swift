import NotibaseCore
import NotibaseSenders
package import NotibaseDomain

extension Rows {
    /// The columns of ``fanOutTarget(_:)``, of the `devices` table.
    package static let fanOutTargetColumns =
        "devices.seq, devices.platform, devices.locale, devices.time_zone, devices.token, devices.created_at, devices.apns_environment"

    package static func fanOutTarget(_ row: some StoredRow) -> FanOutTarget {
        FanOutTarget(
            seq: row.int(0), platform: row.text(1), locale: row.optionalText(2), timeZone: row.optionalText(3), token: row.text(4), createdAt: row.int(5),
            apnsEnvironment: row.optionalText(6).flatMap(APNsEnvironment.init(rawValue:)))
    }

    /// ``fanOutTargetColumns`` and the device's ID and external user ID.
    package static let fanOutTargetWithFactsColumns = fanOutTargetColumns + ", devices.id, devices.external_user_id"

    package static func fanOutTargetWithFacts(_ row: some StoredRow) -> FanOutTarget {
        var target = fanOutTarget(row)
        target.id = row.text(7)
        target.externalUserID = row.optionalText(8)
        return target
    }
}
