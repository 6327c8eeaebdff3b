import Foundation
import Testing
import NotibaseCore
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// When the database cannot answer, a request gets a 503 that says to retry, never a 500, and
/// nothing is half done.
@Suite("Storage unavailable")
struct StorageUnavailableTests {
    @Test func aLockedDatabaseIs503WithRetryAfterAndTheRetrySucceeds() async throws {
        let harness = try await Harness(busyTimeout: 50)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        // Another process holds the write lock (a backup, a migration, a stuck writer).
        let other = try SQLiteConnection(path: harness.directory + "/notibase.sqlite", busyTimeout: 0)
        try other.execute("BEGIN IMMEDIATE")
        let body = #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#
        let busy = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        #expect(busy.status == 503 && busy.errorCode == "unavailable", "\(busy.text)")
        #expect(busy.headers["retry-after"] == "1")
        try other.execute("ROLLBACK")
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
        #expect(await harness.request("POST", "/v1/messages", key: app.serverKey, body: body).status == 202)
    }

    @Test(arguments: [(Int32(5), StorageError.Kind.unavailable), (6, .unavailable), (10 | (3 << 8), .unavailable), (13, .unavailable),
                      (19, .conflict), (11, .corrupt), (1, .corrupt)])
    func sqliteCodesAreClassified(code: Int32, kind: StorageError.Kind) {
        #expect(StorageError.sqlite(code: code, message: "m").kind == kind)
    }
}
