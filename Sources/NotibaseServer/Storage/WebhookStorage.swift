/// What the webhooks ask of the database (docs/decisions/0037): the app's endpoints, the event
/// stream each of them reads in order, the feed that fills it, and the attempts log. Every method
/// is atomic, as the rest of ``Storage``'s.
///
/// Events reach `webhook_events`, the stream, only through ``feedWebhookEvents(limit:)``: the
/// delivery history (`delivery_events`) and the outbox written in the same transaction as a
/// message's, a device's or a batch of deliveries' change (`webhook_outbox`: by the database's own
/// triggers, and SQLite's sends by `recordDeliveries`) are merged there in the order they
/// committed, so an endpoint's cursor over the stream never skips an event committed late. A row
/// may hold several events (a batch's sends); the stream is read event by event.
protocol WebhookStorage: Sendable {
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

    /// Moves up to `limit` events from the delivery history and the outbox into the stream, in the
    /// order they committed; returns how many events it looked at (0: nothing new; a row of
    /// several counts each). On several nodes one feeds at a time; the others return 0.
    func feedWebhookEvents(limit: Int) async throws -> Int
    /// Leases up to `limit` enabled endpoints with something to send and due at `now` (nobody
    /// else's lease running) for `owner` until `until`, in turns across apps: the endpoint of each
    /// app waiting longest first, and no app past its share of `owner`'s `slots` (those divided
    /// among the apps with an endpoint due or held by `owner`, at least one each) while others wait.
    func leaseWebhookEndpoints(owner: String, now: Int, until: Int, limit: Int, slots: Int) async throws -> [WebhookEndpointRecord]
    /// Up to `limit` events of the app's stream after `after` (and up to `through`), for the
    /// endpoint `endpointID` (the app's events and those meant for it alone), in order.
    func webhookEvents(appID: String, endpointID: String, after: Int, through: Int?, limit: Int) async throws -> [WebhookEventRecord]
    /// Writes what the dispatcher decided for an endpoint it leased, with the attempt it made
    /// (when it made one), and ends the lease at `now` when `release`. The state is written only when the
    /// endpoint is still leased by `owner` and nothing changed it since it was leased (its
    /// `revision`); the attempt is recorded either way. Returns whether the state was written.
    func saveWebhookDispatch(endpointID: String, owner: String, revision: Int, _ state: WebhookDispatchState, attempt: WebhookAttemptRecord?, release: Bool, now: Int) async throws -> Bool
    /// Removes up to `limit` events recorded before `before` (retention); returns how many.
    func purgeWebhookEvents(before: Int, limit: Int) async throws -> Int
}
