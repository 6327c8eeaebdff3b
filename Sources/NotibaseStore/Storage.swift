import NotibaseDomain
/// What the server stores and asks of its database, in its own terms: every role a backend plays
/// (`Storage/Roles/`, none of more than 12 requirements). ``SQLiteStore`` implements them on
/// embedded SQLite; another backend (PostgreSQL) implements the same requirements, with the same
/// guarantees: each method is atomic, fan-out batches and their cursor commit together, and a
/// claim is a lease that ends by itself. What only one backend needs (SQLite's checkpoints) stays
/// inside it. Only the wiring (``Server``, ``ServerParts``, ``APIContext``'s initializer) and the
/// tests hold the whole; each service, loop and route part holds the roles it uses, and knows
/// nothing of SQL.
package typealias Storage = KeyDirectory & BackendStore
    & AppsStore & CredentialsStore & DevicesStore
    & PostingStore & MessagesStore & DeliveryLogStore & ReceiptsStore & EndingStore
    & FanOutStore & DeliveryQueueStore & HistoryStore
    & WebhookEndpointsStore & WebhookDispatchStore & LiveActivitiesStore
