/// The static data of a Live Activity, and the type of its dynamic part, `ContentState`, which
/// pushes update (their `content-state` must decode into it).
public protocol ActivityAttributes: Decodable, Encodable {
    /// The dynamic part of the activity.
    associatedtype ContentState: Decodable, Encodable, Hashable
}
