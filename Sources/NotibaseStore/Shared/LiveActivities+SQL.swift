import NotibaseCore
import NotibaseSenders
package import NotibaseDomain

/// The Live Activity registry (``LiveActivitiesStore``): the statements both backends run alike
/// (``SQLExecutor``); the backends add only their tables. Each write reaches its device through
/// `INSERT … SELECT … FROM devices`, so a device deleted meanwhile (or another app's) gets nothing,
/// and the rows go with their device and app (their foreign keys cascade).
extension SQLExecutor {
    /// The app's active device under `pushToken`: an iOS token is stored in lowercase, an FCM
    /// token as it is; each read from the unique `(app_id, platform, token)` index.
    package func activeDevice(appID: String, pushToken: String) throws -> DeviceRecord? {
        let select = { (platform: String, token: Int) in
            "SELECT \(Rows.deviceColumns) FROM devices WHERE app_id = \(self.p(1)) AND platform = '\(platform)' AND token = \(self.p(token)) AND active = 1"
        }
        return try first(
            "\(select(Platform.ios.rawValue, 2)) UNION ALL \(select(Platform.android.rawValue, 3))", [.text(appID), .text(pushToken.lowercased()), .text(pushToken)],
            Rows.device)
    }

    package func savePushToStartToken(appID: String, deviceSeq: Int, attributesType: String, token: String, contentStateSchema: String?, now: Int) throws -> Bool {
        try write(
            """
            INSERT INTO live_activity_start_tokens (device_seq, app_id, attributes_type, token, apns_environment, content_state_schema, updated_at)
            SELECT seq, app_id, CAST(\(p(3)) AS TEXT), CAST(\(p(4)) AS TEXT), apns_environment, CAST(\(p(5)) AS TEXT), CAST(\(p(6)) AS BIGINT)
            FROM devices WHERE seq = \(p(1)) AND app_id = \(p(2))
            ON CONFLICT (device_seq, attributes_type) DO UPDATE SET token = excluded.token, apns_environment = excluded.apns_environment,
                content_state_schema = excluded.content_state_schema, updated_at = excluded.updated_at
            """,
            [.int(deviceSeq), .text(appID), .text(attributesType), .text(token), .optionalText(contentStateSchema), .int(now)]) == 1
    }

    package func pushToStartTokens(appID: String, deviceSeq: Int) throws -> [PushToStartTokenRecord] {
        try rows(
            """
            SELECT attributes_type, token, apns_environment, content_state_schema, updated_at FROM live_activity_start_tokens
            WHERE device_seq = \(p(1)) AND app_id = \(p(2)) ORDER BY attributes_type
            """, [.int(deviceSeq), .text(appID)]) { row in
            PushToStartTokenRecord(
                attributesType: row.text(0), token: row.text(1), apnsEnvironment: row.optionalText(2).flatMap(APNsEnvironment.init(rawValue:)),
                contentStateSchema: row.optionalText(3), updatedAt: row.int(4))
        }
    }

    /// Writes the activity's row on the device (`assignments` on a conflict, `condition` saying
    /// when they apply), then reads its state; nil when the app has no device `deviceSeq`.
    private func upsertLiveActivity(
        appID: String, activityID: String, deviceSeq: Int, attributesType: String?, token: String?, state: LiveActivityState, now: Int,
        assignments: String, condition: String = ""
    ) throws -> LiveActivityState? {
        _ = try write(
            """
            INSERT INTO live_activity_tokens (app_id, activity_id, device_seq, attributes_type, token, state, updated_at)
            SELECT app_id, CAST(\(p(3)) AS TEXT), seq, CAST(\(p(4)) AS TEXT), CAST(\(p(5)) AS TEXT), CAST(\(p(6)) AS TEXT), CAST(\(p(7)) AS BIGINT)
            FROM devices WHERE seq = \(p(1)) AND app_id = \(p(2))
            ON CONFLICT (app_id, activity_id, device_seq) DO UPDATE SET \(assignments)\(condition)
            """,
            [.int(deviceSeq), .text(appID), .text(activityID), .optionalText(attributesType), .optionalText(token), .text(state.rawValue), .int(now)])
        return try first(
            "SELECT state FROM live_activity_tokens WHERE app_id = \(p(1)) AND activity_id = \(p(2)) AND device_seq = \(p(3))",
            [.text(appID), .text(activityID), .int(deviceSeq)]) { row in
            guard let state = LiveActivityState(rawValue: row.text(0)) else { throw StorageError.corrupt("live activity state \(row.text(0))") }
            return state
        }
    }

    package func saveLiveActivityToken(appID: String, activityID: String, deviceSeq: Int, attributesType: String, token: String, now: Int) throws -> LiveActivityState? {
        try upsertLiveActivity(
            appID: appID, activityID: activityID, deviceSeq: deviceSeq, attributesType: attributesType, token: token, state: .active, now: now,
            assignments: "attributes_type = excluded.attributes_type, token = excluded.token, updated_at = excluded.updated_at",
            condition: " WHERE live_activity_tokens.state = '\(LiveActivityState.active.rawValue)'")
    }

    package func endLiveActivity(appID: String, activityID: String, deviceSeq: Int, state: LiveActivityState, now: Int) throws -> LiveActivityState? {
        let dismissed = LiveActivityState.dismissed.rawValue
        return try upsertLiveActivity(
            appID: appID, activityID: activityID, deviceSeq: deviceSeq, attributesType: nil, token: nil, state: state, now: now,
            assignments: """
                state = CASE WHEN live_activity_tokens.state = '\(dismissed)' THEN '\(dismissed)' ELSE excluded.state END, token = NULL,
                    updated_at = excluded.updated_at
                """)
    }

    package func liveActivityDevices(appID: String, activityID: String, page: SeqPage) throws -> [LiveActivityDeviceRecord] {
        try rows(
            """
            SELECT t.seq, d.id, d.platform, t.attributes_type, t.state, t.token, t.updated_at FROM live_activity_tokens t JOIN devices d ON d.seq = t.device_seq
            WHERE t.app_id = \(p(1)) AND t.activity_id = \(p(2)) AND t.seq \(page.comparison) \(p(3)) \(page.orderBy("t.seq")) LIMIT \(p(4))
            """, [.text(appID), .text(activityID), .int(page.bound), .int(page.limit)]) { row in
            guard let platform = Platform(rawValue: row.text(2)), let state = LiveActivityState(rawValue: row.text(4)) else {
                throw StorageError.corrupt("live activity row \(row.int(0))")
            }
            return LiveActivityDeviceRecord(
                seq: row.int(0), deviceID: row.text(1), platform: platform, attributesType: row.optionalText(3), state: state,
                updateToken: row.optionalText(5), updatedAt: row.int(6))
        }
    }

    package func liveActivityDeviceCount(appID: String, activityID: String) throws -> Int {
        try count("SELECT count(*) FROM live_activity_tokens WHERE app_id = \(p(1)) AND activity_id = \(p(2))", [.text(appID), .text(activityID)])
    }
}

extension LiveActivitiesStore where Self: SQLReadStore {
    package func activeDevice(appID: String, pushToken: String) async throws -> DeviceRecord? {
        try await reading(app: appID) { try $0.activeDevice(appID: appID, pushToken: pushToken) }
    }

    package func savePushToStartToken(appID: String, deviceSeq: Int, attributesType: String, token: String, contentStateSchema: String?, now: Int) async throws -> Bool {
        try await writing {
            try $0.savePushToStartToken(appID: appID, deviceSeq: deviceSeq, attributesType: attributesType, token: token, contentStateSchema: contentStateSchema, now: now)
        }
    }

    package func pushToStartTokens(appID: String, deviceSeq: Int) async throws -> [PushToStartTokenRecord] {
        try await reading(app: appID) { try $0.pushToStartTokens(appID: appID, deviceSeq: deviceSeq) }
    }

    package func saveLiveActivityToken(appID: String, activityID: String, deviceSeq: Int, attributesType: String, token: String, now: Int) async throws -> LiveActivityState? {
        try await inOneTransaction {
            try $0.saveLiveActivityToken(appID: appID, activityID: activityID, deviceSeq: deviceSeq, attributesType: attributesType, token: token, now: now)
        }
    }

    package func endLiveActivity(appID: String, activityID: String, deviceSeq: Int, state: LiveActivityState, now: Int) async throws -> LiveActivityState? {
        try await inOneTransaction { try $0.endLiveActivity(appID: appID, activityID: activityID, deviceSeq: deviceSeq, state: state, now: now) }
    }

    package func liveActivityDevices(appID: String, activityID: String, page: SeqPage) async throws -> [LiveActivityDeviceRecord] {
        try await reading(app: appID) { try $0.liveActivityDevices(appID: appID, activityID: activityID, page: page) }
    }

    package func liveActivityDeviceCount(appID: String, activityID: String) async throws -> Int {
        try await reading(app: appID, bulk: true) { try $0.liveActivityDeviceCount(appID: appID, activityID: activityID) }
    }
}
