import Testing
import UserNotificationsShim

@Suite("UNNotificationCategory and UNNotificationAction")
struct UNNotificationCategoryTests {
    @Test func categoriesCompareByValueSoSetsDeduplicate() {
        let first = category("ORDER", buttons: ["track", "cancel"])
        let same = category("ORDER", buttons: ["track", "cancel"])
        let otherButtons = category("ORDER", buttons: ["track"])
        #expect(first == same)
        #expect(first != otherButtons)
        #expect(Set([first, same, otherButtons]).count == 2)
    }

    @Test func initializersKeepEveryValue() {
        let icon = UNNotificationActionIcon(systemImageName: "paperplane")
        let reply = UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [.authenticationRequired], icon: icon,
                                                  textInputButtonTitle: "Send", textInputPlaceholder: "Message")
        let delete = UNNotificationAction(identifier: "delete", title: "Delete", options: [.destructive, .foreground])
        let plain = UNNotificationCategory(identifier: "MESSAGE", actions: [reply, delete], intentIdentifiers: ["INSendMessageIntent"])
        let hidden = UNNotificationCategory(identifier: "SECRET", actions: [], intentIdentifiers: [],
                                            hiddenPreviewsBodyPlaceholder: "%u new messages", options: .customDismissAction)
        let summarized = UNNotificationCategory(identifier: "SUMMARY", actions: [], intentIdentifiers: [],
                                                hiddenPreviewsBodyPlaceholder: nil, categorySummaryFormat: "%u more")

        #expect(plain.actions == [reply, delete])
        #expect(plain.intentIdentifiers == ["INSendMessageIntent"])
        #expect(plain.options == [])
        #expect(plain.hiddenPreviewsBodyPlaceholder == "")
        #expect(hidden.hiddenPreviewsBodyPlaceholder == "%u new messages")
        #expect(hidden.options == .customDismissAction)
        #expect(summarized.categorySummaryFormat == "%u more")
        #expect(reply.textInputButtonTitle == "Send")
        #expect(reply.textInputPlaceholder == "Message")
        #expect(reply.icon == UNNotificationActionIcon(systemImageName: "paperplane"))
        #expect(reply.icon != UNNotificationActionIcon(templateImageName: "paperplane"))
        #expect(delete.options.contains(.destructive) && delete.options.contains(.foreground))
    }

    @Test func aTextInputActionDiffersFromAPlainOne() {
        let plain = UNNotificationAction(identifier: "reply", title: "Reply")
        let text = UNTextInputNotificationAction(identifier: "reply", title: "Reply", textInputButtonTitle: "Send", textInputPlaceholder: "")
        #expect(plain != text)
    }

    @Test func optionRawValuesMatchApple() {
        #expect(UNNotificationActionOptions.authenticationRequired.rawValue == 1)
        #expect(UNNotificationActionOptions.destructive.rawValue == 2)
        #expect(UNNotificationActionOptions.foreground.rawValue == 4)
        #expect(UNNotificationCategoryOptions.customDismissAction.rawValue == 1)
        #expect(UNNotificationCategoryOptions.allowInCarPlay.rawValue == 2)
        #expect(UNAuthorizationOptions([.badge, .sound, .alert]).rawValue == 7)
        #expect(UNNotificationPresentationOptions([.list, .banner]).rawValue == 24)
        #expect(UNNotificationInterruptionLevel.critical.rawValue == 3)
    }
}
