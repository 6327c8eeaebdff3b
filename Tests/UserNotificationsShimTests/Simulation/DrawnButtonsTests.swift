import Testing
import UserNotificationsShim

@Suite("DrawnNotification: buttons come from the registered category")
struct DrawnButtonsTests {
    @Test func withNothingRegisteredNoButtonsAreDrawn() async {
        let drawn = await SimulatedDevice().deliver(payload: payload(category: "ORDER_UPDATE", mutable: false), to: nil)
        #expect(drawn.categoryIdentifier == "ORDER_UPDATE")
        #expect(drawn.buttons.isEmpty)
        #expect(drawn.buttonsReason == .categoryNotRegistered)
    }

    @Test func theRegisteredCategorySuppliesEveryButtonField() async throws {
        let device = SimulatedDevice()
        device.center.setNotificationCategories([UNNotificationCategory(
            identifier: "MESSAGE",
            actions: [
                UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [], icon: UNNotificationActionIcon(systemImageName: "arrowshape.turn.up.left"),
                                              textInputButtonTitle: "Send", textInputPlaceholder: "Message"),
                UNNotificationAction(identifier: "open", title: "Open", options: [.foreground, .authenticationRequired]),
                UNNotificationAction(identifier: "delete", title: "Delete", options: [.destructive],
                                     icon: UNNotificationActionIcon(templateImageName: "trash")),
            ],
            intentIdentifiers: [], options: [.customDismissAction, .allowInCarPlay])])

        let drawn = await device.deliver(payload: payload(category: "MESSAGE", mutable: false), to: nil)

        #expect(drawn.buttonsReason == .registeredCategory)
        #expect(drawn.buttons.map(\.identifier) == ["reply", "open", "delete"])
        #expect(drawn.bannerButtons.map(\.identifier) == ["reply", "open"])
        let reply = try #require(drawn.buttons.first)
        #expect(reply.textInput == DrawnNotification.TextInput(buttonTitle: "Send", placeholder: "Message"))
        #expect(reply.icon == DrawnNotification.Icon(source: .systemImage, name: "arrowshape.turn.up.left"))
        #expect(drawn.buttons[1].options == [.authenticationRequired, .foreground])
        #expect(drawn.buttons[1].textInput == nil)
        #expect(drawn.buttons[2].icon == DrawnNotification.Icon(source: .templateImage, name: "trash"))
        #expect(drawn.categoryOptions == [.customDismissAction, .allowInCarPlay])
    }

    @Test func registeringInTheExtensionMakesTheButtonsAppear() async {
        let device = SimulatedDevice()
        let drawn = await device.deliver(payload: payload(category: "nb_0123", extra: ["test_buttons": ["accept", "decline"]]),
                                         to: MergingServiceExtension())
        #expect(drawn.buttons.map(\.identifier) == ["accept", "decline"])
        #expect(drawn.buttons.allSatisfy { $0.options == [.foreground] })
    }

    @Test func theCategoryIsLookedUpAtDisplayTime() async {
        let device = SimulatedDevice()
        let serviceExtension = ClosureExtension { request, handler in
            // Registered after the notification arrived, before it is shown.
            UNUserNotificationCenter.current().setNotificationCategories([category("LATE", buttons: ["ok"])])
            handler(request.content)
        }
        let drawn = await device.deliver(payload: payload(category: "LATE"), to: serviceExtension)
        #expect(drawn.buttons.map(\.identifier) == ["ok"])
        device.center.setNotificationCategories([])
        #expect(device.drawnNotification(forRequest: drawn.requestIdentifier)?.buttons.map(\.identifier) == ["ok"],
                "what was drawn stays drawn")
    }

    @Test func aCategoryWithoutActionsOrWithoutIdentifierDrawsNoButtons() async {
        let device = SimulatedDevice()
        device.center.setNotificationCategories([category("EMPTY", buttons: [])])
        let empty = await device.deliver(payload: payload(category: "EMPTY", mutable: false), to: nil)
        let none = await device.deliver(payload: payload(mutable: false), to: nil)
        #expect(empty.buttonsReason == .categoryHasNoActions)
        #expect(none.buttonsReason == .noCategoryIdentifier)
    }

    @Test func atMostTenButtonsAreDrawn() async {
        let device = SimulatedDevice()
        device.center.setNotificationCategories([category("MANY", buttons: (1...12).map { "b\($0)" })])
        let drawn = await device.deliver(payload: payload(category: "MANY", mutable: false), to: nil)
        #expect(drawn.buttons.count == 10)
        #expect(drawn.bannerButtons.count == 2)
    }

    @Test func categoriesSharingAnIdentifierAreFlagged() async {
        let device = SimulatedDevice()
        device.center.setNotificationCategories([category("DUP", buttons: ["a"]), category("DUP", buttons: ["b"])])
        let drawn = await device.deliver(payload: payload(category: "DUP", mutable: false), to: nil)
        #expect(drawn.buttonsReason == .ambiguousCategory)
        #expect(drawn.buttons.count == 1)
    }
}
