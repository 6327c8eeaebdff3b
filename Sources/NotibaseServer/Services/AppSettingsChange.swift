import NotibaseCore

/// What creating or changing an app sets: each field given, or nil to leave it as it is; the
/// pacing's fields given a value or none (`.some(nil)` removes it).
struct AppSettingsChange: Sendable {
    var name: String?
    var requireIdentityVerification: Bool?
    var quietHours: QuietHours??
    var defaultRatePerMinute: Int??

    /// The app's pacing with these changes, or nil when they change none of it.
    func pacing(changing current: AppPacing) -> AppPacing? {
        guard quietHours != nil || defaultRatePerMinute != nil else { return nil }
        var pacing = current
        if let quietHours { pacing.quietHours = quietHours }
        if let defaultRatePerMinute { pacing.defaultRatePerMinute = defaultRatePerMinute }
        return pacing
    }
}
