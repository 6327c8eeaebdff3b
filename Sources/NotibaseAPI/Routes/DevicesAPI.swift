import Foundation
import NotibaseCore
import NotibaseSenders
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
package import NotibaseServices

/// `/v1/devices`: register (server or client key), list, read and delete (server key); and
/// `/v1/identity-tokens`, which the app's backend asks for the token that lets a device claim a user.
package enum DevicesAPI {
    package struct DeviceBody: Encodable {
        package var id: String
        package var platform: String
        package var token: String
        package var apnsEnvironment: String?
        package var externalUserId: String?
        package var tags: [String]
        package var locale: String?
        package var timeZone: String?
        package var appVersion: String?
        package var sdkVersion: String?
        package var active: Bool
        package var deactivatedReason: String?
        package var deactivatedAt: String?
        package var createdAt: String
        package var updatedAt: String
        /// The `ActivityAttributes` types it has a Live Activity push-to-start token for (only in
        /// `GET /v1/devices/{deviceId}`, and absent when none: the device reads as it registered).
        package var pushToStartAttributesTypes: [String]?

        package init(_ device: DeviceRecord) {
            id = device.id
            platform = device.platform.rawValue
            token = device.token
            apnsEnvironment = device.apnsEnvironment?.rawValue
            externalUserId = device.externalUserID
            tags = device.tags
            locale = device.locale
            timeZone = device.timeZone
            appVersion = device.appVersion
            sdkVersion = device.sdkVersion
            active = device.active
            deactivatedReason = device.deactivatedReason
            deactivatedAt = device.deactivatedAt?.timestamp
            createdAt = device.createdAt.timestamp
            updatedAt = device.updatedAt.timestamp
        }
    }

    /// One device as JSON, written by hand for the registration answer (the API's hottest path):
    /// the bytes `JSONEncoder` with sorted keys writes for ``DeviceBody``.
    package static func json(_ device: DeviceRecord) -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.field("active", device.active)
        writer.field("apnsEnvironment", device.apnsEnvironment?.rawValue)
        writer.field("appVersion", device.appVersion)
        writer.field("createdAt", time: device.createdAt)
        writer.field("deactivatedAt", time: device.deactivatedAt)
        writer.field("deactivatedReason", device.deactivatedReason)
        writer.field("externalUserId", device.externalUserID)
        writer.field("id", device.id)
        writer.field("locale", device.locale)
        writer.field("platform", device.platform.rawValue)
        writer.field("sdkVersion", device.sdkVersion)
        writer.field("tags", device.tags)
        writer.field("timeZone", device.timeZone)
        writer.field("token", device.token)
        writer.field("updatedAt", time: device.updatedAt)
        return writer.finish()
    }

    /// The answer to a registration. A client-key answer shows only the external user ID the
    /// registration itself stored (``DeviceService/Registration/stored``): the key is public, and a token is not an identity, so
    /// re-registering a known token must not tell whose device it is.
    package static func registered(_ registration: DeviceService.Registration, caller: Caller) -> HTTPResponse {
        var device = registration.device
        if caller.kind == .client, device.externalUserID != registration.stored.externalUserID { device.externalUserID = nil }
        var body = json(device)
        if let warning = registration.warning {
            // "warnings" sorts after every field of the device: append it before the closing brace.
            body.removeLast()
            body += Array(#","warnings":["#.utf8)
            JSONWriter.appendString(warning, to: &body)
            body += Array("]}".utf8)
        }
        return HTTPResponse(status: registration.created ? 201 : 200, contentType: "application/json", body: body)
    }

    /// The keys that register devices.
    package static let registrationKeys: Set<KeyKind> = [.server, .client]

    /// The largest body a quick registration reads on the polling thread (a registration with
    /// every field at its longest fits); larger ones go to the task.
    package static let quickBodyLimit = 16_384

    /// `POST /v1/devices` once the caller is known, the one path both handlers take: the app, the
    /// body (``RegistrationBody/decode(_:)``), then the service.
    package static func register(_ request: HTTPRequest, caller: Caller, _ devices: DeviceService) throws -> @Sendable () async throws -> HTTPResponse {
        let appID = try APIContext.appID(of: caller)
        let upsert = try RegistrationBody.decode(request)
        return { registered(try await devices.register(upsert, appID: appID, caller: caller), caller: caller) }
    }

    /// `POST /v1/devices` on the HTTP polling thread, the API's busiest request: a transport
    /// detail in front of ``register(_:caller:_:)``. With the key already resolved (and a JSON
    /// body of a registration's size) it checks the request on this thread and answers what is
    /// wrong at once; a valid one starts a task here, which leaves the thread at the group commit
    /// and answers once the device is written. Nil (the route's handler then runs) for anything
    /// else.
    package static func quickRegistration(_ request: HTTPRequest, _ context: APIContext) throws -> Router.QuickAnswer? {
        guard request.body.count <= quickBodyLimit, (try? JSON.checkBody(request)) != nil,
              let caller = try context.cachedAppCaller(request, registrationKeys) else { return nil }
        let registration = try register(request, caller: caller, context.devices)
        return .callback { done in
            Task.immediate {
                do {
                    done(.success(try await registration()))
                } catch {
                    done(.failure(error))
                }
            }
        }
    }

    /// `POST /v1/identity-tokens`: the user ID to make a token for.
    package struct IdentityTokenBody: Decodable {
        package var externalUserId: String
        package enum CodingKeys: String, CodingKey, CaseIterable { case externalUserId }
        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            externalUserId = try c.decode(String.self, forKey: .externalUserId)
            try check((1...256).contains(externalUserId.unicodeScalars.count) && !externalUserId.hasControlCharacters, .externalUserId, c,
                      "must be 1 to 256 characters, none a control character")
        }
    }

    package struct IdentityTokenAnswer: Encodable {
        package var externalUserId: String
        package var token: String
    }

    package struct BatchResult: Encodable {
        package var registered: Int
        package var created: Int
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.post, "/v1/devices", quick: { request, _ in try quickRegistration(request, context) }) { request, _ in
            try await register(request, caller: try await context.caller(request, registrationKeys), context.devices)()
        }

        router.add(.post, "/v1/identity-tokens") { request, _ in
            let appID = try await context.appID(request)
            let body = try JSON.decode(IdentityTokenBody.self, from: request)
            let token = context.signer.identityToken(appID: appID, externalUserID: body.externalUserId)
            return JSON.response(status: 200, IdentityTokenAnswer(externalUserId: body.externalUserId, token: token))
        }

        router.add(.post, "/v1/devices/batch") { request, _ in
            let appID = try await context.appID(request)
            let devices = try RegistrationBody.decodeBatch(request)
            let created = try await context.devices.register(batch: devices, appID: appID)
            return JSON.response(status: 200, BatchResult(registered: devices.count, created: created))
        }

        addSignOut(to: &router, context)

        router.add(.get, "/v1/devices") { request, _ in
            let appID = try await context.appID(request)
            let page = try Page(request)
            var filter = DeviceFilter()
            if let platform = request.query["platform"] {
                guard let value = Platform(rawValue: platform) else { throw APIError.invalid("platform", "must be ios or android") }
                filter.platform = value
            }
            if let active = request.query["active"] {
                guard active == "true" || active == "false" else { throw APIError.invalid("active", "must be true or false") }
                filter.active = active == "true"
            }
            for name in ["externalUserId", "tag", "tokenPrefix"] where request.query[name]?.hasControlCharacters == true {
                throw APIError.invalid(name, "must hold no control characters")
            }
            filter.externalUserID = request.query["externalUserId"]
            filter.tag = request.query["tag"]
            if let prefix = request.query["tokenPrefix"] {
                guard (4...200).contains(prefix.unicodeScalars.count) else { throw APIError.invalid("tokenPrefix", "must be 4 to 200 characters") }
                filter.tokenPrefix = prefix
            }
            let (devices, total) = try await context.devices.devices(appID: appID, filter: filter, page: page.seqPage, counting: page.wantsTotal)
            return JSON.response(status: 200, ListBody(items: devices.map(DeviceBody.init), nextCursor: page.next(count: devices.count, lastSeq: devices.last?.seq), total: total))
        }

        router.add(.get, "/v1/devices/{deviceId}") { request, parameters in
            let appID = try await context.appID(request)
            guard let device = try await context.devices.device(appID: appID, id: parameters["deviceId"]) else { throw APIError.notFound("device") }
            var body = DeviceBody(device)
            let types = try await context.liveActivities.pushToStartTypes(appID: appID, deviceSeq: device.seq)
            body.pushToStartAttributesTypes = types.isEmpty ? nil : types
            return JSON.response(status: 200, body)
        }

        router.add(.delete, "/v1/devices/{deviceId}") { request, parameters in
            let appID = try await context.appID(request)
            guard try await context.devices.delete(appID: appID, id: parameters["deviceId"]) else { throw APIError.notFound("device") }
            return HTTPResponse(status: 204)
        }
    }
}
