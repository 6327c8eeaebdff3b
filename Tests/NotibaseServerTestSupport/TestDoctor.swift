#if canImport(NotibaseSimulator)
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
import NotibaseSimulator

/// `notibase preview`'s logic as the server's doctor, as the command line wires it (its
/// `SimulatedDoctor`, which this test target cannot import): the payload without its image.
struct TestDoctor: PayloadDoctor {
    func examine(apnsPayload: JSONValue, bytes: Int) async -> JSONValue {
        var payload = apnsPayload
        if case .object(var fields) = payload {
            fields.removeValue(forKey: PayloadKey.image)
            payload = .object(fields)
        }
        var options = Preview.Options()
        options.deadline = .seconds(3)
        let result = await Preview(options: options).run(payload: payload, payloadBytes: bytes)
        let data = (try? JSONEncoder().encode(result)) ?? Data("{}".utf8)
        return (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .object([:])
    }
}
#endif
