/// What the simulated device drew for one delivered notification, and why: the content it used,
/// the buttons of the category registered at display time, the attachments that survived
/// validation, and how the service extension behaved. Encodes to JSON for fixtures and reports.
public struct DrawnNotification: Equatable, Sendable, Codable {
    /// The request's identifier; the key for taps and dismissals.
    public var requestIdentifier: String
    /// The title shown.
    public var title: String
    /// The subtitle shown.
    public var subtitle: String
    /// The body shown.
    public var body: String
    /// The content's category identifier: the key the buttons were looked up with.
    public var categoryIdentifier: String
    /// The thread identifier that groups notifications.
    public var threadIdentifier: String
    /// The badge number, if the content set one.
    public var badge: Int?
    /// `"default"` or the sound's file name, if the content has a sound.
    public var sound: String?
    /// The interruption level.
    public var interruptionLevel: InterruptionLevel
    /// The relevance score (0…1).
    public var relevanceScore: Double
    /// The target content identifier, if any.
    public var targetContentIdentifier: String?

    /// The buttons drawn in the expanded notification: the category's actions (at most 10).
    public var buttons: [Button]
    /// The buttons drawn in a banner: the first two.
    public var bannerButtons: [Button]
    /// Why there are (or aren't) buttons.
    public var buttonsReason: ButtonsReason
    /// The options of the category the buttons came from (empty without one).
    public var categoryOptions: [CategoryOption]

    /// The attachments shown, after the system's validation and its move into its data store.
    public var attachments: [Attachment]
    /// The attachments the system dropped during that validation.
    public var droppedAttachments: [DroppedAttachment]

    /// Whose content was drawn.
    public var contentSource: ContentSource
    /// Why that content was drawn.
    public var contentReason: ContentReason
    /// Whether the system had to call `serviceExtensionTimeWillExpire()`.
    public var serviceExtensionTimeWillExpireCalled: Bool
    /// How many times the extension had called its content handler when the notification was shown
    /// (0 when it did not run).
    public var contentHandlerCallCount: Int
    /// Contract violations by the extension.
    public var violations: [Violation]
    /// Seconds from the notification's arrival to its display.
    public var elapsedSeconds: Double
    /// With the app in the foreground, how its delegate's `willPresent` said to present the
    /// notification (empty: not shown at all, as without a delegate); nil when the app was not in
    /// the foreground.
    public var foregroundPresentation: [PresentationOption]? = nil
    /// With `serviceExtensionMemoryLimit` set, the most the process's resident memory grew while
    /// the extension worked (sampled every few milliseconds), in bytes; nil otherwise.
    public var serviceExtensionPeakMemoryGrowth: Int? = nil

    /// A way to present a notification to an app in the foreground (`UNNotificationPresentationOptions`).
    public enum PresentationOption: String, Sendable, Codable {
        case badge, sound, alert, list, banner
    }
}

extension DrawnNotification {
    /// A drawn button: one action of the registered category.
    public struct Button: Equatable, Sendable, Codable {
        /// The action identifier the app receives when it is tapped.
        public var identifier: String
        /// The button's title.
        public var title: String
        /// The action's options, in declaration order (`authenticationRequired`, `destructive`,
        /// `foreground`).
        public var options: [ButtonOption]
        /// The icon, if the action has one.
        public var icon: Icon?
        /// The text field, for a text input action.
        public var textInput: TextInput?

        /// Creates a button description, for expected values.
        public init(identifier: String, title: String, options: [ButtonOption] = [], icon: Icon? = nil, textInput: TextInput? = nil) {
            self.identifier = identifier
            self.title = title
            self.options = options
            self.icon = icon
            self.textInput = textInput
        }
    }

    /// An option of a drawn button.
    public enum ButtonOption: String, Sendable, Codable {
        /// Needs an unlocked device.
        case authenticationRequired
        /// Drawn as destructive.
        case destructive
        /// Opens the app.
        case foreground
    }

    /// A button's icon.
    public struct Icon: Equatable, Sendable, Codable {
        /// Where the image comes from.
        public var source: IconSource
        /// The image's name.
        public var name: String

        /// Creates an icon description, for expected values.
        public init(source: IconSource, name: String) {
            self.source = source
            self.name = name
        }
    }

    /// Where a button icon's image comes from.
    public enum IconSource: String, Sendable, Codable {
        /// An SF Symbol (`init(systemImageName:)`).
        case systemImage
        /// An image in the app's bundle (`init(templateImageName:)`).
        case templateImage
    }

    /// The text field of a text input button.
    public struct TextInput: Equatable, Sendable, Codable {
        /// The title of the send button.
        public var buttonTitle: String
        /// The field's placeholder.
        public var placeholder: String

        /// Creates a text field description, for expected values.
        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    /// An option of the category the buttons came from.
    public enum CategoryOption: String, Sendable, Codable {
        /// Dismissals are reported to the delegate.
        case customDismissAction
        /// Shown in CarPlay.
        case allowInCarPlay
        /// Title shown with previews hidden.
        case hiddenPreviewsShowTitle
        /// Subtitle shown with previews hidden.
        case hiddenPreviewsShowSubtitle
    }

    /// An attachment that was shown.
    public struct Attachment: Equatable, Sendable, Codable {
        /// The attachment's identifier.
        public var identifier: String
        /// Its UTI, such as `public.jpeg`.
        public var type: String
        /// Its size in bytes.
        public var fileSize: Int64
        /// Whether its thumbnail is hidden.
        public var thumbnailHidden: Bool
        /// Where the system keeps it now, inside the device's attachment store.
        public var storedPath: String

        /// Creates an attachment description, for expected values.
        public init(identifier: String, type: String, fileSize: Int64, thumbnailHidden: Bool = false, storedPath: String) {
            self.identifier = identifier
            self.type = type
            self.fileSize = fileSize
            self.thumbnailHidden = thumbnailHidden
            self.storedPath = storedPath
        }
    }

    /// An attachment the system dropped after the extension finished.
    public struct DroppedAttachment: Equatable, Sendable, Codable {
        /// The attachment's identifier.
        public var identifier: String
        /// Its UTI.
        public var type: String
        /// The file it pointed to.
        public var path: String
        /// Why it was dropped.
        public var reason: DropReason

        /// Creates a dropped attachment description, for expected values.
        public init(identifier: String, type: String, path: String, reason: DropReason) {
            self.identifier = identifier
            self.type = type
            self.path = path
            self.reason = reason
        }
    }

    /// Why the system dropped an attachment.
    public enum DropReason: String, Sendable, Codable {
        /// The file was gone (deleted, or moved away by an earlier notification) when the system
        /// validated it.
        case fileMissing
        /// The file had grown past the limit of its type.
        case fileTooLarge
        /// Moving the file into the system's data store failed.
        case moveIntoStoreFailed
        /// The file's contents are not of the type it claims (an HTML error page saved as
        /// `photo.jpg`): iOS reads the bytes, not only the extension and the hint.
        case contentsDoNotMatchType
    }

    /// Whose content was drawn.
    public enum ContentSource: String, Sendable, Codable {
        /// The notification as it arrived.
        case original
        /// What the service extension handed back.
        case serviceExtension
    }

    /// Why a content was drawn.
    public enum ContentReason: String, Sendable, Codable {
        /// No service extension was installed.
        case noServiceExtension
        /// `aps.mutable-content` was not 1, so the extension did not run.
        case mutableContentNotSet
        /// The notification had no alert text (title, subtitle or body), so the extension did not run.
        case noAlertText
        /// The extension called its handler in time with content that has alert text.
        case serviceExtensionContent
        /// The extension did not call its handler within its time budget and the grace period after
        /// `serviceExtensionTimeWillExpire()`.
        case serviceExtensionTimedOut
        /// The extension handed back content without alert text; iOS ignores such modifications.
        case serviceExtensionContentHasNoAlertText
        /// The extension's memory grew past `serviceExtensionMemoryLimit` before it called its
        /// handler: iOS kills it (about 24 MB) and shows the original.
        case serviceExtensionExceededMemoryLimit

        /// A sentence for reports.
        public var explanation: String {
            switch self {
            case .noServiceExtension: "No service extension: the original content is shown."
            case .mutableContentNotSet: "aps.mutable-content is not 1: the extension did not run."
            case .noAlertText: "The notification has no alert text: the extension did not run."
            case .serviceExtensionContent: "The extension's content is shown."
            case .serviceExtensionTimedOut:
                "The extension never called its content handler in time: iOS shows the original content."
            case .serviceExtensionContentHasNoAlertText:
                "The extension returned content without alert text: iOS ignores it and shows the original."
            case .serviceExtensionExceededMemoryLimit:
                "The extension used more memory than iOS allows an extension: iOS killed it and shows the original."
            }
        }
    }

    /// Why buttons were (or weren't) drawn.
    public enum ButtonsReason: String, Sendable, Codable {
        /// The category registered under the content's identifier supplied the buttons.
        case registeredCategory
        /// Several registered categories share the identifier; which one iOS uses is undefined. The
        /// simulation used the first in a stable order.
        case ambiguousCategory
        /// The content has no category identifier.
        case noCategoryIdentifier
        /// Nothing is registered under the content's category identifier at display time, so iOS
        /// silently draws no buttons.
        case categoryNotRegistered
        /// The registered category has no actions.
        case categoryHasNoActions

        /// A sentence for reports.
        public var explanation: String {
            switch self {
            case .registeredCategory: "Buttons come from the registered category."
            case .ambiguousCategory: "Several registered categories share this identifier; one was used."
            case .noCategoryIdentifier: "The content has no category identifier: no buttons."
            case .categoryNotRegistered:
                "No category is registered under this identifier at display time: iOS silently draws no buttons."
            case .categoryHasNoActions: "The registered category has no actions."
            }
        }
    }

    /// A contract violation by the service extension.
    public enum Violation: String, Sendable, Codable {
        /// The content handler was called more than once (`contentHandlerCallCount` says how often).
        case contentHandlerCalledMoreThanOnce
        /// The content handler was never called.
        case contentHandlerNeverCalled
        /// The extension's memory grew past the device's `serviceExtensionMemoryLimit`.
        case memoryLimitExceeded
        /// When the last notification in the extension's process was handed over (iOS may suspend
        /// the process then), the process held a file lock in one of the device's
        /// `sharedContainers`: iOS kills such a process (`0xdead10cc`).
        case fileLockHeldWhileSuspended
    }

    /// A notification's interruption level.
    public enum InterruptionLevel: String, Sendable, Codable {
        /// `UNNotificationInterruptionLevel.passive`.
        case passive
        /// `UNNotificationInterruptionLevel.active`.
        case active
        /// `UNNotificationInterruptionLevel.timeSensitive`.
        case timeSensitive
        /// `UNNotificationInterruptionLevel.critical`.
        case critical
    }
}
