import Foundation
import NotibaseCore
import NotibaseServer
import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery
#if canImport(NotibaseSimulator)
import NotibaseSimulator
#endif

/// The doctor `notibase serve` and `notibase demo` give the server: the simulated iPhone where it
/// exists (Linux), none elsewhere.
let standardDoctor: (any PayloadDoctor)? = {
    #if canImport(NotibaseSimulator)
    SimulatedDoctor()
    #else
    nil
    #endif
}()

#if canImport(NotibaseSimulator)
/// `notibase preview`'s logic as the server's ``PayloadDoctor``: the real Notibase extension on a
/// simulated iPhone. The image is not downloaded (a preview must not make the server fetch any URL
/// a caller names): the payload is examined without `nb_image`, and a note says so.
struct SimulatedDoctor: PayloadDoctor {
    func examine(apnsPayload: JSONValue, bytes: Int) async -> JSONValue {
        var payload = apnsPayload
        var image: String?
        if case .object(var fields) = payload {
            image = fields.removeValue(forKey: PayloadKey.image)?.string
            payload = .object(fields)
        }
        var options = Preview.Options()
        options.deadline = .seconds(3)
        var result = await Preview(options: options).run(payload: payload, payloadBytes: bytes)
        if let image {
            result.image.requested = image
            result.image.reason = "the phone downloads the image; the preview checks its URL, not the file"
        }
        let data = (try? JSONEncoder().encode(result)) ?? Data("{}".utf8)
        return (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .object([:])
    }
}
#endif
