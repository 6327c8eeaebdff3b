package import NotibaseDomain
/// What the webhooks' dispatcher asks of the database (docs/decisions/0037, ``WebhookDispatcher``):
/// the event stream each endpoint reads in order, the feed that fills it, the endpoints' leases and
/// what was sent. Every method is atomic, as the rest of ``Storage``'s.
///
/// Events reach `webhook_events`, the stream, only through ``feedWebhookEvents(limit:)``: the
/// delivery history (`delivery_events`) and the outbox written in the same transaction as a
/// message's, a device's or a batch of deliveries' change (`webhook_outbox`: by the database's own
/// triggers, and SQLite's sends by `recordDeliveries`) are merged there in the order they
/// committed, so an endpoint's cursor over the stream never skips an event committed late. A row
/// may hold several events (a batch's sends); the stream is read event by event.
package protocol WebhookDispatchStore: Sendable {
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
