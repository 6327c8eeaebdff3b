package import NotibaseSenders

extension ProviderCredentials {
    /// The credentials a device's push goes with: an iOS device that registered its APNs
    /// environment is sent there with the app's key or certificate (Apple's token auth serves both
    /// environments); any other device keeps the app's.
    package func forDevice(apnsEnvironment: APNsEnvironment?) -> ProviderCredentials {
        guard case .apns(var apns) = self, let apnsEnvironment, apnsEnvironment != apns.environment else { return self }
        apns.environment = apnsEnvironment
        return .apns(apns)
    }
}
