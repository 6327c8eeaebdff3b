import NotibaseCore
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

extension NewSend {
    /// The pacing the send asks for, with its app's settings: its quiet hours when it opts in,
    /// its default rate when it names none. Nil when nothing paces it (it is sent as it always was).
    package func pacing(app: AppPacing, now: Int) throws -> Pacing? {
        var pacing = Pacing(
            localTime: localTime, localDate: localDate, fallbackTimeZone: fallbackTimeZone, ratePerMinute: ratePerMinute ?? app.defaultRatePerMinute)
        if quietHours == true {
            guard let quiet = app.quietHours else {
                throw Refusal.invalid("quietHours", "asks for the app's quiet hours, and the app has none: set them with PATCH /v1/apps/{appId} first")
            }
            pacing.quietHours = quiet
        }
        if pacing.hasPassedEverywhere(now: now) {
            throw Refusal.invalid("localDate", "has passed in every time zone: \(localTime?.text ?? "") on \(localDate?.text ?? "") is over everywhere")
        }
        return pacing.localTime == nil && pacing.ratePerMinute == nil && pacing.quietHours == nil ? nil : pacing
    }
}
