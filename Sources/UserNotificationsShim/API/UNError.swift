public import Foundation

/// The error domain for notifications (Apple's `UNErrorDomain`).
public let UNErrorDomain: String = "UNErrorDomain"

/// An error the UserNotifications framework reports (Apple's `UNError`), with Apple's codes.
///
/// Match it as on iOS: `catch UNError.attachmentInvalidURL` or
/// `catch let error as UNError where error.code == .attachmentUnrecognizedType`.
/// Two errors are equal when their codes are.
public struct UNError: CustomNSError, Hashable, Error {
    /// The codes of `UNErrorDomain`, with Apple's raw values.
    public enum Code: Int, Sendable, Equatable {
        /// The app isn't allowed to schedule notifications.
        case notificationsNotAllowed = 1
        /// The URL for an attachment was invalid.
        case attachmentInvalidURL = 100
        /// The file type of an attachment isn't supported.
        case attachmentUnrecognizedType = 101
        /// The file for an attachment exceeds the allowed size.
        case attachmentInvalidFileSize = 102
        /// The specified attachment isn't in the system data store.
        case attachmentNotInDataStore = 103
        /// An error occurred when trying to move an attachment to the system data store.
        case attachmentMoveIntoDataStoreFailed = 104
        /// The file for an attachment is corrupt.
        case attachmentCorrupt = 105
        /// The notification doesn't have an associated date, but should.
        case notificationInvalidNoDate = 1400
        /// The notification has no user-facing content.
        case notificationInvalidNoContent = 1401
        /// The content-providing object isn't allowed.
        case contentProvidingObjectNotAllowed = 1500
        /// The content-providing object is invalid.
        case contentProvidingInvalid = 1501
        /// The badge input is invalid.
        case badgeInputInvalid = 1600

        /// Whether `error` is a `UNError` with this code, so `catch UNError.attachmentCorrupt` works.
        public static func ~= (match: UNError.Code, error: any Error) -> Bool {
            (error as? UNError)?.code == match
        }
    }

    /// The error code.
    public let code: Code
    private let message: String

    /// Creates an error with a code; `userInfo[NSLocalizedDescriptionKey]`, when a `String`, becomes
    /// its description.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        message = userInfo[NSLocalizedDescriptionKey] as? String ?? "UNErrorDomain error \(code.rawValue)"
    }

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `UNErrorDomain`.
    public static var errorDomain: String { UNErrorDomain }

    /// The code's raw value.
    public var errorCode: Int { code.rawValue }

    /// The description of what went wrong and what to do, under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }

    /// The description of what went wrong and what to do.
    public var localizedDescription: String { message }

    /// Equal when the codes are.
    public static func == (lhs: UNError, rhs: UNError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// The app isn't allowed to schedule notifications.
    public static var notificationsNotAllowed: UNError.Code { .notificationsNotAllowed }
    /// The URL for an attachment was invalid.
    public static var attachmentInvalidURL: UNError.Code { .attachmentInvalidURL }
    /// The file type of an attachment isn't supported.
    public static var attachmentUnrecognizedType: UNError.Code { .attachmentUnrecognizedType }
    /// The file for an attachment exceeds the allowed size.
    public static var attachmentInvalidFileSize: UNError.Code { .attachmentInvalidFileSize }
    /// The specified attachment isn't in the system data store.
    public static var attachmentNotInDataStore: UNError.Code { .attachmentNotInDataStore }
    /// An error occurred when trying to move an attachment to the system data store.
    public static var attachmentMoveIntoDataStoreFailed: UNError.Code { .attachmentMoveIntoDataStoreFailed }
    /// The file for an attachment is corrupt.
    public static var attachmentCorrupt: UNError.Code { .attachmentCorrupt }
    /// The notification doesn't have an associated date, but should.
    public static var notificationInvalidNoDate: UNError.Code { .notificationInvalidNoDate }
    /// The notification has no user-facing content.
    public static var notificationInvalidNoContent: UNError.Code { .notificationInvalidNoContent }
    /// The content-providing object isn't allowed.
    public static var contentProvidingObjectNotAllowed: UNError.Code { .contentProvidingObjectNotAllowed }
    /// The content-providing object is invalid.
    public static var contentProvidingInvalid: UNError.Code { .contentProvidingInvalid }
    /// The badge input is invalid.
    public static var badgeInputInvalid: UNError.Code { .badgeInputInvalid }
}
