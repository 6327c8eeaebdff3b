import Foundation
import NotibaseCore

/// `/v1/devices`: register (server or client key), list, read and delete (server key).
enum DevicesAPI {
    struct BatchBody: Decodable {
        var devices: [RegistrationBody]
        enum CodingKeys: String, CodingKey, CaseIterable { case devices }
        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            devices = try c.decode([RegistrationBody].self, forKey: .devices)
            try check((1...10_000).contains(devices.count), .devices, c, "must hold from 1 to 10000 devices")
        }
    }

    struct DeviceBody: Encodable {
        var id: String
        var platform: String
        var token: String
        var externalUserId: String?
        var tags: [String]
        var locale: String?
        var timeZone: String?
        var appVersion: String?
        var sdkVersion: String?
        var active: Bool
        var deactivatedReason: String?
        var deactivatedAt: String?
        var createdAt: String
        var updatedAt: String

        init(_ device: DeviceRecord) {
            id = device.id
            platform = device.platform.rawValue
            token = device.token
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

    /// One device as JSON, written by hand for the registration answer (the API's hottest path);
    /// the same bytes `JSONEncoder` with sorted keys writes for ``DeviceBody``.
    static func json(_ device: DeviceBody) -> [UInt8] {
        var fields: [String] = ["\"active\":\(device.active)"]
        func add(_ key: String, _ value: String?) {
            if let value { fields.append("\"\(key)\":" + Logger.quote(value)) }
        }
        add("appVersion", device.appVersion)
        add("createdAt", device.createdAt)
        add("deactivatedAt", device.deactivatedAt)
        add("deactivatedReason", device.deactivatedReason)
        add("externalUserId", device.externalUserId)
        add("id", device.id)
        add("locale", device.locale)
        add("platform", device.platform)
        add("sdkVersion", device.sdkVersion)
        fields.append("\"tags\":[" + device.tags.map(Logger.quote).joined(separator: ",") + "]")
        add("timeZone", device.timeZone)
        add("token", device.token)
        add("updatedAt", device.updatedAt)
        return Array(("{" + fields.joined(separator: ",") + "}").utf8)
    }

    struct BatchResult: Encodable {
        var registered: Int
        var created: Int
    }

    static func add(to router: inout Router, _ context: APIContext) {
        router.add("POST", "/v1/devices") { request, _ in
            let appID = try await context.appID(request, [.server, .client])
            let registration = try RegistrationBody.decode(request)
            let now = context.clock.milliseconds()
            let (device, created) = try await context.store.registerDevice(appID: appID, registration, newID: Identifier.make(milliseconds: now), now: now)
            return HTTPResponse(status: created ? 201 : 200, contentType: "application/json", body: json(DeviceBody(device)))
        }

        router.add("POST", "/v1/devices/batch") { request, _ in
            let appID = try await context.appID(request)
            let body = try JSON.decode(BatchBody.self, from: request)
            let now = context.clock.milliseconds()
            let registrations = body.devices.map { ($0.registration, newID: Identifier.make(milliseconds: now)) }
            let created = try await context.store.registerDevices(appID: appID, registrations, now: now)
            return JSON.response(status: 200, BatchResult(registered: registrations.count, created: created))
        }

        router.add("GET", "/v1/devices") { request, _ in
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
            filter.externalUserID = request.query["externalUserId"]
            filter.tag = request.query["tag"]
            let devices = try await context.store.devices(appID: appID, filter: filter, afterSeq: page.after, limit: page.limit)
            return JSON.response(status: 200, ListBody(items: devices.map(DeviceBody.init), nextCursor: page.next(count: devices.count, lastSeq: devices.last?.seq)))
        }

        router.add("GET", "/v1/devices/{deviceId}") { request, parameters in
            let appID = try await context.appID(request)
            guard let device = try await context.store.device(appID: appID, id: parameters["deviceId"]) else { throw APIError.notFound("device") }
            return JSON.response(status: 200, DeviceBody(device))
        }

        router.add("DELETE", "/v1/devices/{deviceId}") { request, parameters in
            let appID = try await context.appID(request)
            guard try await context.store.deleteDevice(appID: appID, id: parameters["deviceId"]) else { throw APIError.notFound("device") }
            return HTTPResponse(status: 204)
        }
    }
}

/// Throws a decoding error at `key` unless `condition` holds (turned into a 400 naming the field).
func check<Key: CodingKey>(_ condition: Bool, _ key: Key, _ c: KeyedDecodingContainer<Key>, _ message: String) throws {
    if !condition { throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: message) }
}
