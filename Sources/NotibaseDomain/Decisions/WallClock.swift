package import Foundation
package import NotibaseSenders

extension WallClock {
    /// Now, in milliseconds since 1970 (the unit the database stores).
    package func milliseconds() -> Int { Int((now().timeIntervalSince1970 * 1000).rounded(.down)) }
}

extension Date {
    package init(milliseconds: Int) {
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
