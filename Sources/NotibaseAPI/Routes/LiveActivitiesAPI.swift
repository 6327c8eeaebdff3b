import Foundation
package import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
package import NotibaseServices

/// The Live Activity registry (issue 46): `POST /v1/live-activity-reports`, where the SDKs report a
/// device's push-to-start tokens, its activities' update tokens and their ends (client or server
/// key, the body ``LiveActivityReport``); and `GET /v1/live-activities/{activityId}`, the devices
/// that reported an activity and its state on each (server key). Sending comes next.
package enum LiveActivitiesAPI {
    /// A report, decoded strictly: a field it does not know is refused by name.
    package struct ReportBody: Decodable {
        package var report: LiveActivityReport

        package enum Keys: String, CodingKey, CaseIterable {
            case deviceToken, kind, attributesType, activityId, token, contentStateSchema
        }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(Keys.self)
            report = try LiveActivityReport(from: decoder)
        }
    }

    /// The most fields a content state's schema lists, and its largest size as stored.
    package static let maximumSchemaFields = 128
    package static let maximumSchemaBytes = 8_192
    /// The longest update or push-to-start token, in hexadecimal digits.
    package static let maximumTokenDigits = 400

    /// The report's fields checked, each wrong one refused by name, as the change it asks for.
    package static func change(_ report: LiveActivityReport) throws -> LiveActivityService.Change {
        let token = report.deviceToken
        guard (16...4096).contains(token.utf8.count), token.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw APIError.invalid("deviceToken", "must be the push token the device registered (its APNs token in hexadecimal, or its FCM registration token)")
        }
        let fields: [(name: String, present: Bool)] = [
            ("attributesType", report.attributesType != nil), ("activityId", report.activityId != nil), ("token", report.token != nil),
            ("contentStateSchema", report.contentStateSchema != nil),
        ]
        let wanted: Set<String> = switch report.kind {
        case .pushToStartToken: ["attributesType", "token", "contentStateSchema"]
        case .updateToken: ["attributesType", "activityId", "token"]
        case .ended, .dismissed: ["activityId"]
        }
        for field in fields where field.present && !wanted.contains(field.name) {
            throw APIError.invalid(field.name, "is not sent with a \(report.kind.rawValue) report")
        }
        for field in fields where !field.present && wanted.contains(field.name) && field.name != "contentStateSchema" {
            throw APIError.invalid(DecodingProblem(field: field.name, message: "is required with a \(report.kind.rawValue) report", kind: .missingField))
        }
        if let type = report.attributesType, !LiveActivityMessage.isTypeName(type) {
            throw APIError.invalid("attributesType", "must be the Swift name of the app's ActivityAttributes type: a letter or _, then letters, digits or _, at most \(LiveActivityMessage.maximumAttributesTypeLength)")
        }
        if let activity = report.activityId, let problem = LiveActivityID.problem(with: activity) {
            throw APIError.invalid("activityId", "is not an activity ID: \(problem)")
        }
        if let token = report.token, !RegistrationBody.isAPNsToken(token, digits: 64...maximumTokenDigits) {
            throw APIError.invalid("token", "must be the ActivityKit token in hexadecimal (64 to \(maximumTokenDigits) digits)")
        }
        switch report.kind {
        case .pushToStartToken:
            return .pushToStartToken(attributesType: report.attributesType!, token: report.token!.lowercased(), contentStateSchema: try schema(report.contentStateSchema))
        case .updateToken:
            return .updateToken(activityID: report.activityId!, attributesType: report.attributesType!, token: report.token!.lowercased())
        case .ended: return .ended(activityID: report.activityId!)
        case .dismissed: return .dismissed(activityID: report.activityId!)
        }
    }

    /// The schema as stored (JSON), bounded.
    private static func schema(_ schema: ContentStateSchema?) throws -> String? {
        guard let schema else { return nil }
        let stored = try StoredJSON.encode(schema)
        guard schema.fields.count <= maximumSchemaFields, stored.utf8.count <= maximumSchemaBytes else {
            throw APIError.invalid("contentStateSchema", "must list at most \(maximumSchemaFields) fields in at most \(maximumSchemaBytes) bytes")
        }
        return stored
    }

    /// What a report did.
    package struct ReportAnswer: Encodable {
        package var deviceId: String
        package var kind: String
        /// The activity's state on the device afterwards (not for a push-to-start token).
        package var state: String?
    }

    /// One device of an activity.
    package struct DeviceBody: Encodable {
        package var deviceId: String
        package var platform: String
        package var attributesType: String?
        package var state: String
        /// Whether the activity can be updated on this device: it is active and its token known.
        package var hasUpdateToken: Bool
        package var updatedAt: String

        package init(_ record: LiveActivityDeviceRecord) {
            deviceId = record.deviceID
            platform = record.platform.rawValue
            attributesType = record.attributesType
            state = record.state.rawValue
            hasUpdateToken = record.state == .active && record.updateToken != nil
            updatedAt = record.updatedAt.timestamp
        }
    }

    /// An activity and a page of its devices.
    package struct ActivityBody: Encodable {
        package var activityId: String
        package var devices: ListBody<DeviceBody>
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.post, "/v1/live-activity-reports") { request, _ in
            let caller = try await context.caller(request, [.client, .server])
            let appID = try APIContext.appID(of: caller)
            let report = try JSON.decode(ReportBody.self, from: request).report
            let change = try change(report)
            let recorded = try await context.liveActivities.apply(change, deviceToken: report.deviceToken, appID: appID, caller: caller)
            return JSON.response(
                status: recorded.changed ? 202 : 200, ReportAnswer(deviceId: recorded.deviceID, kind: report.kind.rawValue, state: recorded.state?.rawValue))
        }

        router.add(.get, "/v1/live-activities/{activityId}") { request, parameters in
            let appID = try await context.appID(request)
            let activityID = try parameters["activityId"]
            if let problem = LiveActivityID.problem(with: activityID) { throw APIError.invalid("activityId", "is not an activity ID: \(problem)") }
            let page = try Page(request)
            let (devices, total) = try await context.liveActivities.devices(appID: appID, activityID: activityID, page: page.seqPage, counting: page.wantsTotal)
            if devices.isEmpty && page.cursor == nil { throw APIError.notFound("Live Activity") }
            let list = ListBody(items: devices.map(DeviceBody.init), nextCursor: page.next(count: devices.count, lastSeq: devices.last?.seq), total: total)
            return JSON.response(status: 200, ActivityBody(activityId: activityID, devices: list))
        }
    }
}
