package import NotibaseSenders

extension APNsEnvironment {
    /// The environment a request names: `sandbox` or `production`, or `development`, Apple's own
    /// word for the sandbox (the `aps-environment` entitlement of a development build, and what
    /// the console offers). Nil for anything else.
    package init?(name: String) {
        if name == "development" {
            self = .sandbox
        } else {
            self.init(rawValue: name)
        }
    }

    /// What a request may name, for the error that refuses anything else.
    package static let namesExplained = "must be sandbox (development builds; development is read as sandbox) or production (TestFlight and App Store builds)"
}
