public import Foundation

/// A content state with its stale date and relevance score.
public struct ActivityContent<State> where State: Decodable, State: Encodable, State: Hashable {
    /// The content state.
    public let state: State
    /// When the system marks the activity stale.
    public let staleDate: Date?
    /// Which activity the system shows first when there are several.
    public let relevanceScore: Double

    /// Content.
    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

extension ActivityContent: Sendable where State: Sendable {}

extension ActivityContent: CustomStringConvertible {
    public var description: String {
        "ActivityContent(state: \(state), staleDate: \(staleDate.map { "\($0)" } ?? "nil"), relevanceScore: \(relevanceScore))"
    }
}
