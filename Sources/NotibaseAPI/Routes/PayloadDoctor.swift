package import NotibaseCore
import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// What iOS would draw for an APNs payload, and why anything is missing: `notibase preview`'s
/// logic (the real Notibase extension on a simulated iPhone). The server cannot run it itself (the
/// simulator sits above the server), so the command line hands one in; without one, the preview
/// endpoint answers the payloads and validation only.
package protocol PayloadDoctor: Sendable {
    /// The verdict on an APNs body of `bytes` bytes, as JSON: what is drawn (title, body,
    /// buttons, image), `problems` and `notes`.
    func examine(apnsPayload: JSONValue, bytes: Int) async -> JSONValue
}
