/// A device registration waiting for its store's next group commit, which writes the
/// registrations that arrive together in one transaction (one durable commit for many devices),
/// and tells each its own result.
struct PendingRegistration: Sendable {
    var appID: String
    var registration: DeviceUpsert
    var now: Int
    var completion: @Sendable (Result<(DeviceRecord, created: Bool), any Error>) -> Void
}

extension [PendingRegistration] {
    /// A new device identifier for each, made at its own moment; nil, with every one told the
    /// error, when they cannot be made.
    func newIDs() -> [String]? {
        do {
            return try Identifier.make(times: map(\.now))
        } catch {
            for pending in self { pending.completion(.failure(error)) }
            return nil
        }
    }
}
