import Foundation
import UserNotificationsShim

/// A service extension whose behaviour each test writes as a closure.
final class ClosureExtension: UNNotificationServiceExtension {
    typealias Handler = (UNNotificationContent) -> Void

    private let receive: (UNNotificationRequest, @escaping Handler) -> Void
    private let expire: () -> Void
    let events = Recorder<String>()
    let threads = Recorder<(event: String, thread: UInt)>()

    init(receive: @escaping (UNNotificationRequest, @escaping Handler) -> Void, expire: @escaping () -> Void = {}) {
        self.receive = receive
        self.expire = expire
    }

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping Handler) {
        events.record("didReceive")
        threads.record(("didReceive", currentThreadID()))
        receive(request, contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        events.record("serviceExtensionTimeWillExpire")
        threads.record(("serviceExtensionTimeWillExpire", currentThreadID()))
        expire()
    }

    var ran: Bool {
        events.all.contains("didReceive")
    }
}

/// An extension that hands back a copy of the content with another title.
func retitlingExtension(_ title: String) -> ClosureExtension {
    ClosureExtension { request, handler in
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        content.title = title
        handler(content)
    }
}

/// A remote notification payload.
func payload(title: String = "Order shipped", body: String = "Arriving Thursday", category: String? = nil,
             mutable: Bool = true, extra: [String: Any] = [:]) -> [AnyHashable: Any] {
    var alert: [String: Any] = [:]
    if !title.isEmpty { alert["title"] = title }
    if !body.isEmpty { alert["body"] = body }
    var aps: [String: Any] = [:]
    if !alert.isEmpty { aps["alert"] = alert }
    if mutable { aps["mutable-content"] = 1 }
    if let category { aps["category"] = category }
    var payload: [AnyHashable: Any] = ["aps": aps]
    for (key, value) in extra { payload[key] = value }
    return payload
}

/// A category with plain buttons.
func category(_ identifier: String, buttons: [String], options: UNNotificationCategoryOptions = []) -> UNNotificationCategory {
    UNNotificationCategory(identifier: identifier,
                           actions: buttons.map { UNNotificationAction(identifier: $0, title: $0.capitalized) },
                           intentIdentifiers: [], options: options)
}
