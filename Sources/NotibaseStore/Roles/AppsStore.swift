package import NotibaseDomain
/// Apps and their keys: ``AppService`` writes them; the credential parts and the send read an app.
package protocol AppsStore: Sendable {
    func createApp(id: String, name: String, serverKeyHash: [UInt8], clientKeyHash: [UInt8], requireIdentityVerification: Bool, now: Int) async throws -> AppRecord
    func apps() async throws -> [AppRecord]
    func app(_ id: String) async throws -> AppRecord?
    /// Changes what is given; `pacing` replaces the app's quiet hours and default rate whole.
    func updateApp(_ id: String, name: String?, requireIdentityVerification: Bool?, pacing: AppPacing?) async throws -> AppRecord?
    /// Deletes the app and everything of it, in one transaction.
    func deleteApp(_ id: String) async throws -> Bool
    func replaceKey(appID: String, kind: KeyKind, hash: [UInt8]) async throws -> Bool
}
