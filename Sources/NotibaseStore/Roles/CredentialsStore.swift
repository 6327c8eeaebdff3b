package import NotibaseDomain
/// An app's sealed provider credentials, with how sending with them went and what testing them
/// said: ``AppService`` stores them, ``CredentialVault`` reads them for the workers,
/// ``CredentialMonitor`` and ``CredentialTester`` record their health.
package protocol CredentialsStore: Sendable {
    func putCredentials(appID: String, provider: String, sealed: [UInt8], summary: String, now: Int) async throws
    func deleteCredentials(appID: String, provider: String) async throws -> Bool
    func credentials(appID: String) async throws -> [CredentialRecord]
    /// Stores how sending with an app's credentials for `provider` went, when the app's
    /// credentials are still those of `revision` (replaced ones are `untested` again, whatever
    /// their last sends said); returns whether it did.
    func recordCredentialHealth(appID: String, provider: String, revision: Int, _ health: CredentialHealth) async throws -> Bool
    /// Stores a credential test's state or result (``CredentialTestResult``, as JSON) when the
    /// app's credentials for `provider` are still the very ones tested (`sealed`, whose nonce
    /// differs at every upload): a test of replaced credentials never marks the new ones. Returns
    /// whether it did.
    func recordCredentialTest(appID: String, provider: String, sealed: [UInt8], _ result: String) async throws -> Bool
}
