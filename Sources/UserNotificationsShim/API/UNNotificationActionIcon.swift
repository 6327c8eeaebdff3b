public import Foundation

/// An icon associated with an action (Apple's `UNNotificationActionIcon`). Immutable.
///
/// Apple exposes no properties; the simulation reads the internal ones to describe drawn buttons.
public class UNNotificationActionIcon: NSObject, NSCopying {
    /// Where the image comes from.
    enum Source: String, Sendable {
        case systemImage
        case templateImage
    }

    let source: Source
    let imageName: String

    init(source: Source, imageName: String) {
        self.source = source
        self.imageName = imageName
        super.init()
    }

    /// Creates an action icon by using a system symbol image.
    public convenience init(systemImageName: String) {
        self.init(source: .systemImage, imageName: systemImageName)
    }

    /// Creates an action icon based on an image in your app's bundle.
    public convenience init(templateImageName: String) {
        self.init(source: .templateImage, imageName: templateImageName)
    }

    /// Returns the receiver: icons are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Icons are equal when they name the same image from the same source.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationActionIcon else { return false }
        return source == other.source && imageName == other.imageName
    }

    /// A hash consistent with `isEqual(_:)`.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(imageName)
        return hasher.finalize()
    }
}
