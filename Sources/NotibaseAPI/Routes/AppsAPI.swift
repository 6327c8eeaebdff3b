import Foundation
import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
package import NotibaseServices

/// `/v1/apps`: the admin key creates apps; an app's server key reads it, rotates its keys and
/// uploads its provider credentials.
package enum AppsAPI {
    /// An app's settings: all of them to create one (`name` is required then), those to change
    /// for `PATCH /v1/apps/{appId}` (the others stay as they are).
    /// An app's settings as given to create or change it: quiet hours and a default rate given
    /// (a value, or `null` to remove it) or left as they are (nil).
    package struct SettingsBody: Decodable {
        package var change = AppSettingsChange()
        package enum CodingKeys: String, CodingKey, CaseIterable { case name, requireIdentityVerification, quietHours, defaultRatePerMinute }
        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let name = try c.decodeIfPresent(String.self, forKey: .name)
            change.name = name
            change.requireIdentityVerification = try c.decodeIfPresent(Bool.self, forKey: .requireIdentityVerification)
            try check(name.map { (1...100).contains($0.unicodeScalars.count) } ?? true, .name, c, "must be 1 to 100 characters")
            if c.contains(.quietHours) { change.quietHours = .some(try c.decodeIfPresent(QuietHoursBody.self, forKey: .quietHours)?.window) }
            if c.contains(.defaultRatePerMinute) {
                let rate = try c.decodeIfPresent(Int.self, forKey: .defaultRatePerMinute)
                try check(rate.map { (1...1_000_000).contains($0) } ?? true, .defaultRatePerMinute, c, "must be from 1 to 1000000 deliveries a minute, or null for none")
                change.defaultRatePerMinute = .some(rate)
            }
        }
    }

    /// `{"start": "22:00", "end": "08:00"}`: a window of each device's wall clock.
    package struct QuietHoursBody: Decodable {
        package var window: QuietHours
        package enum CodingKeys: String, CodingKey, CaseIterable { case start, end }
        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            window = QuietHours(start: try c.decode(WallTime.self, forKey: .start), end: try c.decode(WallTime.self, forKey: .end))
            try check(window.start != window.end, .end, c, "must differ from start (22:00 to 08:00 spans midnight; 13:00 to 14:00 does not)")
        }
    }

    package struct AppBody: Encodable {
        package var id: String
        package var name: String
        package var requireIdentityVerification: Bool
        package var quietHours: QuietHours?
        package var defaultRatePerMinute: Int?
        package var createdAt: String
        package var credentials: [String: CredentialBody]
        /// Only in the answer that creates the app: shown once, never again.
        package var serverKey: String?
        package var clientKey: String?
    }

    package struct KeyBody: Encodable {
        package var kind: String
        package var key: String
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.post, "/v1/apps") { request, _ in
            _ = try await context.caller(request, [.admin])
            let body = try JSON.decode(SettingsBody.self, from: request)
            guard let name = body.change.name else {
                throw APIError(status: 400, code: "missing_field", message: "name is required: the app's name, 1 to 100 characters", field: "name")
            }
            let (app, serverKey, clientKey) = try await context.apps.create(body.change, name: name)
            var answer = try await self.body(app, context)
            (answer.serverKey, answer.clientKey) = (serverKey, clientKey)
            return JSON.response(status: 201, answer)
        }

        // The admin lists every app; a server key lists its own (the console finds its app, and
        // the health of its credentials, this way).
        router.add(.get, "/v1/apps") { request, _ in
            let caller = try await context.caller(request, [.admin, .server])
            var items: [AppBody] = []
            for app in try await context.apps.apps(only: caller.appID) { items.append(try await body(app, context)) }
            return JSON.response(status: 200, ListBody(items: items, nextCursor: nil))
        }

        router.add(.get, "/v1/apps/{appId}") { request, parameters in
            let app = try await access(request, parameters["appId"], context)
            return JSON.response(status: 200, try await body(app, context))
        }

        router.add(.patch, "/v1/apps/{appId}") { request, parameters in
            let app = try await access(request, parameters["appId"], context)
            let body = try JSON.decode(SettingsBody.self, from: request)
            guard let updated = try await context.apps.update(app, body.change) else { throw APIError.notFound("app") }
            return JSON.response(status: 200, try await self.body(updated, context))
        }

        router.add(.delete, "/v1/apps/{appId}") { request, parameters in
            _ = try await context.caller(request, [.admin])
            guard try await context.apps.delete(parameters["appId"]) else { throw APIError.notFound("app") }
            return HTTPResponse(status: 204)
        }

        router.add(.post, "/v1/apps/{appId}/keys/{kind}/rotate") { request, parameters in
            let app = try await access(request, parameters["appId"], context)
            guard let kind = KeyKind(rawValue: try parameters["kind"]), kind != .admin else {
                throw APIError(status: 404, code: "not_found", message: "rotate the server or the client key: /keys/server/rotate or /keys/client/rotate", field: nil)
            }
            guard let key = try await context.apps.rotateKey(of: app, kind) else { throw APIError.notFound("app") }
            return JSON.response(status: 200, KeyBody(kind: kind.rawValue, key: key))
        }

        router.add(.put, "/v1/apps/{appId}/credentials/apns") { request, parameters in
            let app = try await access(request, parameters["appId"], context)
            let credentials = try JSON.decode(StoredAPNsCredentials.self, from: request)
            if credentials.certificate != nil {
                // A certificate was checked as it was read (its key matches it); here, its date.
                try credentials.checkNotExpired(now: context.clock.milliseconds(), uploadedAs: request.body)
            } else {
                try CredentialChecks.apnsTokenKey(keyID: credentials.keyID, teamID: credentials.teamID, privateKey: credentials.privateKey)
            }
            try CredentialChecks.bundleID(credentials.bundleID)
            return try await store(credentials, provider: "apns", summary: credentials.summary, app: app, context)
        }

        router.add(.put, "/v1/apps/{appId}/credentials/fcm") { request, parameters in
            let app = try await access(request, parameters["appId"], context)
            try JSON.checkBody(request)
            try CredentialChecks.serviceAccount(request.body, acceptsAnyTokenURI: context.limits.acceptsAnyFCMTokenURI)
            let credentials = try JSON.decode(StoredFCMCredentials.self, from: request)
            return try await store(credentials, provider: "fcm", summary: credentials.summary, app: app, context)
        }

        addCredentialTests(to: &router, context)

        for provider in ["apns", "fcm"] {
            router.add(.delete, "/v1/apps/{appId}/credentials/\(provider)") { request, parameters in
                let app = try await access(request, parameters["appId"], context)
                try await context.apps.deleteCredentials(of: app, provider: provider)
                return HTTPResponse(status: 204)  // idempotent: none stored is the state asked for
            }
        }
    }

    /// The app, when the caller is the admin or the app's own server key; 404 otherwise, as if it
    /// did not exist.
    package static func access(_ request: HTTPRequest, _ appID: String, _ context: APIContext) async throws -> AppRecord {
        let caller = try await context.caller(request, [.admin, .server])
        guard caller.kind == .admin || caller.appID == appID, let app = try await context.apps.app(appID) else {
            throw APIError.notFound("app")
        }
        return app
    }

    private static func store(_ credentials: some Encodable, provider: String, summary: [String: String], app: AppRecord, _ context: APIContext) async throws -> HTTPResponse {
        let now = try await context.apps.storeCredentials(credentials, provider: provider, summary: summary, app: app)
        var shown = shown(summary.merging(["provider": provider, "updatedAt": now.timestamp]) { a, _ in a }, appID: app.id, provider: provider, warn: true, context)
        let test = await testOnUpload(app: app, provider: provider, context)
        shown["test"] = try JSONDecoder().decode(JSONValue.self, from: JSON.encoder().encode(TestBody(test)))
        return JSON.response(status: 200, shown)
    }

    /// A stored summary as the API shows it: with `expiresSoon` beside a certificate's `expiresAt`
    /// (30 days or less ahead), and, on upload (`warn`), a warning in the log when it is (the
    /// workers warn once a day while they send with it: CredentialVault).
    private static func shown(_ summary: [String: String], appID: String, provider: String, warn: Bool = false, _ context: APIContext) -> [String: JSONValue] {
        var shown = summary.mapValues(JSONValue.string)
        if let expiresAt = summary["expiresAt"].flatMap(Timestamp.parse).map({ Int(($0.timeIntervalSince1970 * 1000).rounded()) }) {
            let soon = StoredAPNsCredentials.expiresSoon(expiresAt, now: context.clock.milliseconds())
            shown["expiresSoon"] = .bool(soon)
            if soon && warn {
                context.logger.warning("APNs certificate expires soon", ["appId": .string(appID), "provider": .string(provider), "expiresAt": .string(expiresAt.timestamp)])
            }
        }
        return shown
    }

    private static func body(_ app: AppRecord, _ context: APIContext) async throws -> AppBody {
        var credentials: [String: CredentialBody] = [:]
        for record in try await context.apps.credentials(of: app) {
            var summary = (try? JSONDecoder().decode([String: String].self, from: Data(record.summary.utf8))) ?? [:]
            summary["updatedAt"] = record.updatedAt.timestamp
            credentials[record.provider] = CredentialBody(
                summary: shown(summary, appID: app.id, provider: record.provider, context), health: HealthBody(record.health),
                test: record.test.shown(now: context.clock.milliseconds()))
        }
        return AppBody(
            id: app.id, name: app.name, requireIdentityVerification: app.requireIdentityVerification, quietHours: app.pacing.quietHours,
            defaultRatePerMinute: app.pacing.defaultRatePerMinute, createdAt: app.createdAt.timestamp, credentials: credentials)
    }
}
