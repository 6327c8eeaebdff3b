import Foundation

extension SimulatedDevice {
    /// The person taps a button of a delivered notification.
    ///
    /// Builds the `UNNotificationResponse` (a `UNTextInputNotificationResponse` for a text input
    /// button, with `userText`, empty when nil) and calls the center delegate's
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)` on the main thread. The
    /// notification leaves the screen.
    ///
    /// - Throws: `SimulationError` if the notification is not on screen, was drawn without that
    ///   button, or `userText` is given for a button without a text field.
    @discardableResult
    public func tap(button actionIdentifier: String, inNotification requestIdentifier: String, userText: String? = nil)
        async throws -> SimulatedInteraction {
        let notification = try onScreen(requestIdentifier)
        let drawn = drawnNotification(forRequest: requestIdentifier)
        guard let button = drawn?.buttons.first(where: { $0.identifier == actionIdentifier }) else {
            throw SimulationError.buttonNotShown(actionIdentifier, inNotification: requestIdentifier)
        }
        if button.textInput == nil, userText != nil {
            throw SimulationError.notATextInputButton(actionIdentifier)
        }
        let text = button.textInput == nil ? nil : userText ?? ""
        let response = text.map {
            UNTextInputNotificationResponse(notification: notification, actionIdentifier: actionIdentifier, userText: $0)
        } ?? UNNotificationResponse(notification: notification, actionIdentifier: actionIdentifier)
        return await respond(response, userText: text, opensApp: button.options.contains(.foreground), report: true)
    }

    /// The person taps the notification itself: the app opens and the delegate receives
    /// `UNNotificationDefaultActionIdentifier`.
    ///
    /// - Throws: `SimulationError.notDelivered` if the notification is not on screen.
    @discardableResult
    public func tapNotification(_ requestIdentifier: String) async throws -> SimulatedInteraction {
        let notification = try onScreen(requestIdentifier)
        let response = UNNotificationResponse(notification: notification, actionIdentifier: UNNotificationDefaultActionIdentifier)
        return await respond(response, userText: nil, opensApp: true, report: true)
    }

    /// The person explicitly dismisses the notification (Clear). It leaves the screen; the delegate
    /// receives `UNNotificationDismissActionIdentifier` only if the category it was drawn with has
    /// `customDismissAction`, as Apple documents.
    ///
    /// - Throws: `SimulationError.notDelivered` if the notification is not on screen.
    @discardableResult
    public func dismissNotification(_ requestIdentifier: String) async throws -> SimulatedInteraction {
        let notification = try onScreen(requestIdentifier)
        let reported = drawnNotification(forRequest: requestIdentifier)?.categoryOptions.contains(.customDismissAction) ?? false
        let response = UNNotificationResponse(notification: notification, actionIdentifier: UNNotificationDismissActionIdentifier)
        return await respond(response, userText: nil, opensApp: false, report: reported)
    }

    private func onScreen(_ requestIdentifier: String) throws -> UNNotification {
        guard let notification = system.delivered(identifier: requestIdentifier) else {
            throw SimulationError.notDelivered(requestIdentifier)
        }
        return notification
    }

    private func respond(_ response: UNNotificationResponse, userText: String?, opensApp: Bool, report: Bool) async
        -> SimulatedInteraction {
        let requestIdentifier = response.notification.request.identifier
        system.removeDelivered(identifiers: [requestIdentifier])
        var interaction = SimulatedInteraction(requestIdentifier: requestIdentifier, actionIdentifier: response.actionIdentifier,
                                               userText: userText, opensApp: opensApp, delegateOutcome: .notReported)
        guard report else { return interaction }
        interaction.delegateOutcome = await callDelegate(with: response)
        return interaction
    }

    /// Calls the delegate on the main thread, as iOS does, and waits (on a thread of the system)
    /// for its completion handler.
    private func callDelegate(with response: UNNotificationResponse) async -> SimulatedInteraction.DelegateOutcome {
        let center = center
        guard let delegate = center.delegate else { return .noDelegate }
        let call = Unchecked((delegate, center, response))
        let timeout = delegateCompletionTimeout
        let bind = system.bind
        return await withCheckedContinuation { continuation in
            Self.startThread(named: "UserNotificationsShim delegate (\(name))") {
                let completion = Signal()
                DispatchQueue.main.async {
                    bind {
                        call.value.0.userNotificationCenter(call.value.1, didReceive: call.value.2) { completion.fire() }
                    }
                }
                let completed = completion.wait(until: .now + timeout)
                continuation.resume(returning: completed ? .completed : .completionHandlerNotCalled)
            }
        }
    }

    /// Asks the delegate, on the main thread, how to present a notification to the app in the
    /// foreground; waits for its answer on the calling (system) thread. No delegate, or no answer
    /// within `delegateCompletionTimeout`: nothing is presented.
    func askDelegateToPresent(_ notification: UNNotification) -> UNNotificationPresentationOptions {
        let center = center
        guard let delegate = center.delegate else { return [] }
        let call = Unchecked((delegate, center, notification))
        let bind = system.bind
        let answered = Signal()
        let options = Locked<UNNotificationPresentationOptions>([])
        DispatchQueue.main.async {
            bind {
                call.value.0.userNotificationCenter(call.value.1, willPresent: call.value.2) { chosen in
                    options.withLock { $0 = chosen }
                    answered.fire()
                }
            }
        }
        guard answered.wait(until: .now + delegateCompletionTimeout) else { return [] }
        return options.withLock { $0 }
    }
}
