import NotibaseCore
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// What creating or changing an app sets: each field given, or nil to leave it as it is; the
/// pacing's fields given a value or none (`.some(nil)` removes it).
package struct AppSettingsChange: Sendable {
    package var name: String?
    package var requireIdentityVerification: Bool?
    package var quietHours: QuietHours??
    package var defaultRatePerMinute: Int??

    /// The app's pacing with these changes, or nil when they change none of it.
    package func pacing(changing current: AppPacing) -> AppPacing? {
        guard quietHours != nil || defaultRatePerMinute != nil else { return nil }
        var pacing = current
        if let quietHours { pacing.quietHours = quietHours }
        if let defaultRatePerMinute { pacing.defaultRatePerMinute = defaultRatePerMinute }
        return pacing
    }

    package init(name: String? = nil, requireIdentityVerification: Bool? = nil, quietHours: QuietHours?? = nil, defaultRatePerMinute: Int?? = nil) {
        self.name = name
        self.requireIdentityVerification = requireIdentityVerification
        self.quietHours = quietHours
        self.defaultRatePerMinute = defaultRatePerMinute
    }
}
