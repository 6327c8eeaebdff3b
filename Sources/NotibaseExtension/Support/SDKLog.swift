import Foundation
#if canImport(os)
import os
#endif

/// What the SDK tells the developer: a misconfiguration (a missing App Group, `configure` never
/// called) is logged, and in debug builds also fails an assertion, so it is seen while developing;
/// a release build goes on without the feature and never crashes.
///
/// On Apple platforms messages go to the unified log (subsystem `dev.notibase`); elsewhere to
/// standard error. Messages never hold secrets or device tokens. The last messages are kept in
/// memory (``recent``) so that tests can see them.
package enum SDKLog {
    /// Whether ``misconfigured(_:)`` fails an assertion in debug builds. Tests that provoke a
    /// misconfiguration on purpose turn it off.
    package static let assertsOnMisconfiguration = Locked(true)

    private static let kept = Locked([String]())

    /// A mistake in the app's setup: logged as an error; an assertion failure in debug builds.
    package static func misconfigured(_ message: String) {
        write("Notibase misconfigured: " + message)
        if assertsOnMisconfiguration.withLock({ $0 }) {
            assertionFailure("Notibase misconfigured: " + message)
        }
    }

    /// Something went wrong that the app cannot fix at run time (logged as an error).
    package static func error(_ message: String) {
        write("Notibase: " + message)
    }

    /// The last messages written (at most 200), oldest first.
    package static var recent: [String] { kept.withLock { $0 } }

    private static func write(_ line: String) {
        kept.withLock { kept in
            kept.append(line)
            if kept.count > 200 { kept.removeFirst(kept.count - 200) }
        }
        #if canImport(os)
        // Made for each message: `Logger` is not Sendable in the iOS 16 SDK, so it cannot be a
        // static; misconfiguration messages are rare.
        Logger(subsystem: "dev.notibase", category: "sdk").error("\(line, privacy: .public)")
        #else
        FileHandle.standardError.write(Data((line + "\n").utf8))
        #endif
    }
}
