package import NotibaseDomain
/// An app's webhook endpoints as ``WebhookService`` manages them: made, listed, changed, deleted,
/// their secrets rotated, a test event or a replay asked for, their attempts read. What the
/// dispatcher does with them is ``WebhookDispatchStore``.
package protocol WebhookEndpointsStore: Sendable {
    /// Stores a new endpoint; it reads the events recorded after this moment. Nil, storing
    /// nothing, when the app has its `limit` of endpoints already (checked atomically with the insert).
    func createWebhookEndpoint(_ endpoint: NewWebhookEndpoint) async throws -> WebhookEndpointRecord?
    /// A page of the app's endpoints, in the order they were made (`page.order`).
    func webhookEndpoints(appID: String, page: SeqPage) async throws -> [WebhookEndpointRecord]
    func webhookEndpoint(appID: String, id: String) async throws -> WebhookEndpointRecord?
    /// Changes what is given (a `types` of `.some(nil)` means every type); a batch in flight keeps
    /// its `webhook-id` and its range of events (sent to the new URL, of the types wanted when it
    /// is sent); a new URL is tried at once and, as enabling, forgets the failures (enabling also
    /// clears the reason it was disabled). Returns the endpoint afterwards.
    func updateWebhookEndpoint(appID: String, id: String, _ change: WebhookEndpointChange, now: Int) async throws -> WebhookEndpointRecord?
    /// Deletes an endpoint with its attempts and the events meant for it alone.
    func deleteWebhookEndpoint(appID: String, id: String) async throws -> Bool
    /// Makes `sealed` the endpoint's secret; the one it replaces keeps signing until `previousUntil`.
    func rotateWebhookSecret(appID: String, id: String, sealed: [UInt8], previousUntil: Int, now: Int) async throws -> WebhookEndpointRecord?
    /// Records a `webhook.test` event meant for this endpoint alone, as the outbox records others;
    /// returns false when the app has no such endpoint.
    func recordWebhookTest(appID: String, id: String, now: Int) async throws -> Bool
    /// Moves the endpoint's cursor back (or forward) to the first event recorded at or after
    /// `since`, dropping its batch in flight: the events from there are sent again, in order.
    /// Returns how many events of the stream that is from there, or nil when the app has no such endpoint.
    func replayWebhookEvents(appID: String, id: String, since: Int) async throws -> Int?
    /// The endpoint's most recent attempts, newest first; nil when the app has no such endpoint.
    func webhookAttempts(appID: String, id: String, limit: Int) async throws -> [WebhookAttemptRecord]?
}
