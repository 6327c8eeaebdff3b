// Test double: one notification through the Notibase extension on a simulated iPhone that kills
// this process the instant the content handler is called, as iOS may. The test then looks in the
// shared directory for the render report. Arguments: the shared directory, the delivery ID.
#if canImport(UserNotificationsShim)
import Foundation
import NotibaseExtension
@preconcurrency import UserNotificationsShim

final class ProbeService: NotibaseNotificationService {
    let probeConfiguration: ExtensionConfiguration

    init(shared: URL) {
        var configuration = ExtensionConfiguration()
        configuration.sharedDirectory = shared
        configuration.imagePolicy = ImageDownloadPolicy(directory: shared)
        configuration.deadline = .seconds(5)
        probeConfiguration = configuration
        super.init()
    }

    override var configuration: ExtensionConfiguration { probeConfiguration }
}

let arguments = CommandLine.arguments
let shared = URL(fileURLWithPath: arguments[1])
let device = SimulatedDevice(name: "killed iPhone")
device.extensionTermination = .killProcessAfterContentHandler
let payload: [AnyHashable: Any] = [
    "aps": ["alert": ["title": "Order shipped"], "mutable-content": 1, "category": "nb_0000000000000000"],
    "nb_buttons": [["id": "track", "text": "Track"]],
    "nb_delivery": arguments[2], "nb_message": "msg_probe",
]
_ = await device.deliver(payload: payload, to: ProbeService(shared: shared))
print("the process was not killed")
exit(3)
#else
print("ExtensionKillProbe runs only with UserNotificationsShim")
#endif
