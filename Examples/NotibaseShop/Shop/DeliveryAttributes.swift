import ActivityKit
import Notibase

/// The shop's delivery Live Activity: the order (fixed for the activity's life) and its progress
/// (each update's `content-state`). Shared by the app and the widget extension (project.yml).
/// Notibase puts the activity's ID in `notibaseActivityID` when it starts one by push.
struct DeliveryAttributes: NotibaseActivityAttributes {
    struct ContentState: Codable, Hashable {
        var status: String
        var minutesLeft: Int
    }

    var notibaseActivityID: String
    var orderNumber: String
}
