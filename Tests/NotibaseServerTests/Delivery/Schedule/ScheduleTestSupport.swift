import NotibaseCore
import Foundation
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
@testable import NotibaseServerTestSupport

/// Milliseconds since 1970 of an RFC 3339 time, for the scheduling tests.
func ms(_ text: String) -> Int {
    Int(Timestamp.parse(text)!.timeIntervalSince1970 * 1000)
}

func zone(_ identifier: String) -> ZoneClock { ZoneClock(identifier)! }

func date(_ text: String) -> CivilDate { CivilDate(text)! }

func time(_ text: String) -> WallTime { WallTime(text)! }
