#if os(iOS) || os(Linux)
#if os(iOS)
public import ActivityKit
#else
public import ActivityKitShim
#endif

/// The attributes of a Live Activity that Notibase starts and updates: an `ActivityAttributes`
/// with the activity's Notibase ID, which Notibase puts in the attributes of every push-to-start
/// under the key `notibaseActivityID` (1–64 characters of `A-Za-z0-9._:-`). The SDK reports each
/// activity's update token under that ID, so the server knows which device runs which activity.
///
/// ```swift
/// struct DeliveryAttributes: NotibaseActivityAttributes {
///     struct ContentState: Codable, Hashable { var status: String; var minutesLeft: Int }
///     var notibaseActivityID: String
///     var orderNumber: String
/// }
/// ```
///
/// Synthesized `Codable` reads the ID from the `notibaseActivityID` key; keep that name (or map
/// a `CodingKeys` case to it). The type is `Sendable` (a struct of plain values is): the SDK
/// watches its activities from tasks of its own.
@available(iOS 16.1, *)
public protocol NotibaseActivityAttributes: ActivityAttributes, Sendable {
    /// The activity's ID at Notibase (the one your backend chose, or Notibase made).
    var notibaseActivityID: String { get }
}
#endif
