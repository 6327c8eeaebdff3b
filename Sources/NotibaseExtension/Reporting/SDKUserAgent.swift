import NotibaseCore

/// What the iOS SDK (the extension and the app side) calls itself in every request to the Notibase
/// server: `Notibase-iOS/<version>`, the version being `NotibaseVersion.current`.
package enum SDKUserAgent {
    /// The `User-Agent` header's value.
    package static let value = "Notibase-iOS/" + NotibaseVersion.current
}
