package import Foundation

/// The protection class of the files the app and its extension share.
///
/// The extension runs while the phone is locked (a notification arrives in a pocket). A file with
/// `complete` protection (the class an app gets with the Data Protection capability's default)
/// cannot be opened then: the category lock, the ledger and the receipt outbox are created with
/// `completeUntilFirstUserAuthentication`, readable once the phone was unlocked after booting.
package enum DataProtection {
    /// Gives the file or directory at `path` the class the extension can use while locked. A no-op
    /// off iOS.
    package static func allowWhileLocked(_ path: String) {
        #if os(iOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
        #endif
    }

    /// Creates `directory` (and its parents) with that class.
    package static func makeDirectory(_ directory: URL) {
        #if os(iOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication])
        #else
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #endif
    }
}
