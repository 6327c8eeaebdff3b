#if os(iOS) || os(Linux)
extension Notibase {
    /// The app's Live Activities: `Notibase.liveActivities.observe(DeliveryAttributes.self)` once
    /// per attributes type, after `configure` (before it, the call is logged and does nothing).
    public static var liveActivities: LiveActivities { LiveActivities(client: current) }
}

extension NotibaseClient {
    /// This client's Live Activities (see `Notibase.liveActivities`).
    public var liveActivities: LiveActivities { LiveActivities(client: self) }
}
#endif
