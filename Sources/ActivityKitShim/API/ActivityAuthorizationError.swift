public import Foundation

/// Why `Activity.request` refused (Apple's cases; the simulation throws `unsupported`,
/// `visibility` and `denied`).
public enum ActivityAuthorizationError: CustomNSError, LocalizedError {
    public static var errorDomain: String { "com.apple.ActivityKit.ActivityAuthorizationError" }

    case attributesTooLarge
    case unsupported
    case denied
    case globalMaximumExceeded
    case targetMaximumExceeded
    case unsupportedTarget
    case visibility
    case persistenceFailure
    case missingProcessIdentifier
    case unentitled
    case malformedActivityIdentifier
    case reconnectNotPermitted

    public var errorCode: Int {
        switch self {
        case .attributesTooLarge: 0
        case .unsupported: 1
        case .denied: 2
        case .globalMaximumExceeded: 3
        case .targetMaximumExceeded: 4
        case .unsupportedTarget: 5
        case .visibility: 6
        case .persistenceFailure: 7
        case .missingProcessIdentifier: 8
        case .unentitled: 9
        case .malformedActivityIdentifier: 10
        case .reconnectNotPermitted: 11
        }
    }

    public var failureReason: String? { "\(self)" }
    public var recoverySuggestion: String? { nil }
}
