import NotibaseCore

/// A way to get pushes to devices: APNs, FCM, or the simulated devices of `notibase demo`.
///
/// The server's workers claim deliveries, render each one with `NotibaseCore`, and hand a batch to
/// the sender for the device's platform. A sender never throws: every failure, including a refused
/// connection or a timeout, is an outcome that the retry policy turns into the next step.
package protocol Sender: Sendable {
    /// Sends the pushes, concurrently where the provider allows, and returns one outcome per push,
    /// in the same order.
    func send(_ pushes: [Push]) async -> [SendOutcome]

    /// Stops accepting work, lets what is in flight finish (or fail as `retry`), and closes
    /// connections. Sending after shutdown returns `retry` outcomes.
    func shutdown() async
}
