public import NotibaseCore

/// ``CategoryStore`` over `UNUserNotificationCenter`.
///
/// Everything that touches `UNNotificationCategory` objects happens inside the center's completion
/// handler: the existing set is read, filtered and written back there, so the app's categories are
/// passed through as the very objects the system returned (every property kept), and no category
/// object crosses into Swift concurrency.
public struct SystemCategoryStore: CategoryStore {
    /// The center, carried across threads: Apple documents it as usable from any thread.
    private let center: UncheckedSendable<UNUserNotificationCenter>

    /// A store over `center` (the extension passes `UNUserNotificationCenter.current()`).
    public init(center: UNUserNotificationCenter) {
        self.center = UncheckedSendable(center)
    }

    public func update(timeout: Duration, _ decide: @escaping @Sendable (Set<String>) -> CategoryChange?)
        async throws(CategoryStoreError) -> CategoryChange?
    {
        let center = center
        do {
            return try await Deadline.run(timeout: timeout) { complete in
                center.value.getNotificationCategories { existing in
                    complete {
                        guard let change = decide(Set(existing.map(\.identifier))) else { return nil }
                        center.value.setNotificationCategories(change.applied(to: existing))
                        return change
                    }
                }
            }
        } catch {
            throw .readTimedOut
        }
    }

    public func deliveredCategoryIdentifiers(timeout: Duration) async throws(CategoryStoreError) -> Set<String> {
        let center = center
        do {
            return try await Deadline.run(timeout: timeout) { complete in
                center.value.getDeliveredNotifications { notifications in
                    complete { Set(notifications.map(\.request.content.categoryIdentifier)) }
                }
            }
        } catch {
            throw .readTimedOut
        }
    }
}

extension CategoryChange {
    /// `existing` with the change made: owned categories removed, the new one added; every other
    /// category (the app's) is the very object that was read.
    public func applied(to existing: Set<UNNotificationCategory>) -> Set<UNNotificationCategory> {
        let replaced = add?.identifier
        var updated = existing.filter { !remove.contains($0.identifier) && $0.identifier != replaced }
        if let add { updated.insert(UNNotificationCategory.notibase(identifier: add.identifier, buttons: add.buttons)) }
        return updated
    }
}

extension UNNotificationCategory {
    /// The category Notibase registers for a list of buttons: one action per button, a text-input
    /// action for a button with `input`, options and icons mapped; `customDismissAction` so that
    /// dismissals can be reported.
    public static func notibase(identifier: String, buttons: [Button]) -> UNNotificationCategory {
        UNNotificationCategory(
            identifier: identifier, actions: buttons.map(UNNotificationAction.notibase), intentIdentifiers: [],
            options: [.customDismissAction])
    }
}

extension UNNotificationAction {
    /// The action for a Notibase button: options and icon mapped, a text-input action when the
    /// button has `input`.
    public static func notibase(_ button: Button) -> UNNotificationAction {
        var options: UNNotificationActionOptions = []
        if button.options.contains(.foreground) { options.insert(.foreground) }
        if button.options.contains(.destructive) { options.insert(.destructive) }
        if button.options.contains(.authenticationRequired) { options.insert(.authenticationRequired) }
        let icon = button.icon.flatMap(UNNotificationActionIcon.notibase)
        if let input = button.input {
            return UNTextInputNotificationAction(
                identifier: button.id, title: button.text, options: options, icon: icon,
                textInputButtonTitle: input.button ?? "", textInputPlaceholder: input.placeholder ?? "")
        }
        return UNNotificationAction(identifier: button.id, title: button.text, options: options, icon: icon)
    }
}

extension UNNotificationActionIcon {
    /// `system:NAME` or `template:NAME`; nil for anything else.
    static func notibase(_ icon: String) -> UNNotificationActionIcon? {
        if icon.hasPrefix("system:") { return UNNotificationActionIcon(systemImageName: String(icon.dropFirst(7))) }
        if icon.hasPrefix("template:") { return UNNotificationActionIcon(templateImageName: String(icon.dropFirst(9))) }
        return nil
    }
}
