#if canImport(NotibaseSimulator)
import Foundation
import NotibaseCore
import NotibaseServer
import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery
import NotibaseSenders
import NotibaseSimulator
import Notibase
import NotibaseExtension
@preconcurrency import UserNotificationsShim

/// `notibase demo`: the whole loop on one machine. A server on a temporary data directory, an app,
/// simulated iPhones (running the real Notibase extension) and an Android phone, a message with two
/// buttons and an image served locally; then the delivery log, ending with what each device drew.
struct Demo {
    var io: TerminalIO
    var keepData: Bool
    /// Whether to keep everything running afterwards for the web console.
    var console = false

    struct Phone {
        var label: String
        var token: String
        var platform: Platform
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if !keepData { try? FileManager.default.removeItem(at: directory) } }

        // The image host: what would be a CDN.
        let image = Self.pictureBytes()
        let host = try LocalImageHost(files: ["/parcel.jpg": ("image/jpeg", image)])
        defer { host.stop() }

        // The server, with the simulated sender: created first, the fleet gets its receipt endpoint
        // once the app exists.
        let admin = "nb_admin_" + Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max) })
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory.appendingPathComponent("data").path
        configuration.adminKey = admin
        configuration.accessLog = false
        let fleet = SimulatedFleet(
            directory: directory.appendingPathComponent("phones"), images: ImageRoutes(["images.demo.notibase": host.baseURL]))
        let sender = SimulatedSender(fleet: fleet)
        let server = try await Server.start(
            configuration, senders: SenderSet(ios: sender, android: sender, credentials: .notRequired, providerNames: [.ios: "simulated", .android: "simulated"],
                trialSetting: .senderSimulated),
            logger: Logger(minimumLevel: .warning, sink: { io.writeError($0 + "\n") }), doctor: standardDoctor)
        let serverURL = URL(string: "http://127.0.0.1:\(server.port)")!
        let api = APIClient(baseURL: serverURL)
        io.writeOutput("notibase demo\n")
        io.writeOutput("  server:  \(serverURL.absoluteString) (SQLite in \(configuration.dataDirectory))\n")

        let app = try await api.call("POST", "/v1/apps", key: admin, body: ["name": "Demo Shop"])
        guard let serverKey = app["serverKey"].string, let clientKey = app["clientKey"].string else {
            throw APIClient.Failure(description: "the app was created without keys: \(app)")
        }
        io.writeOutput("  app:     Demo Shop (server key and client key created; the client key ships in the app)\n")

        fleet.receiptEndpoint = ReceiptEndpoint(serverURL: serverURL, clientKey: clientKey)

        // Devices: two iPhones (one whose app registers a category of its own), an Android phone,
        // and an iPhone whose app was deleted since it registered.
        let invitation = AppCategory(identifier: "INVITATION", buttons: [Button(id: "accept", text: "Accept")])
        let phones = [
            Phone(label: "Anna's iPhone", token: Self.token(1), platform: .ios),
            Phone(label: "Ben's iPhone", token: Self.token(2), platform: .ios),
            Phone(label: "Chloé's Pixel", token: "fcm-demo-token-chloe-0001", platform: .android),
            Phone(label: "Dev's old iPhone", token: Self.token(4), platform: .ios),
        ]
        var clients: [String: NotibaseClient] = [:]
        // The shop's backend signs each user in: it asks Notibase for the user's identity token
        // with its server key and hands it to the app, which registers with it.
        func identityToken(_ user: String) async throws -> JSONValue {
            try await api.call("POST", "/v1/identity-tokens", key: serverKey, body: ["externalUserId": .string(user)])["token"]
        }
        var iPhones: [String: SimulatedIPhone] = [:]
        for phone in phones {
            switch phone.platform {
            case .ios:
                let iPhone = fleet.addIPhone(name: phone.label, token: phone.token, appCategories: phone.token == Self.token(2) ? [invitation] : [])
                iPhones[phone.token] = iPhone
                // The app side registers through the iOS SDK, as a real app would.
                var sdk = NotibaseConfiguration(
                    serverURL: serverURL, clientKey: clientKey, sharedDirectory: iPhone.sharedDirectory,
                    stateDirectory: iPhone.sharedDirectory.appendingPathComponent("app"))
                sdk.appVersion = "3.1"
                let client = NotibaseClient(configuration: sdk, center: iPhone.device.center)
                client.registerDeviceToken(Self.bytes(hex: phone.token))
                client.setExternalUserID(phone.label, token: try await identityToken(phone.label).string)
                _ = await client.flushNow()
                clients[phone.token] = client
            case .android:
                fleet.addAndroid(name: phone.label, token: phone.token)
                try await api.call("POST", "/v1/devices", key: clientKey, body: [
                    "platform": "android", "token": .string(phone.token), "externalUserId": .string(phone.label),
                    "externalUserIdToken": try await identityToken(phone.label), "locale": "fr-FR",
                ])
            }
        }
        fleet.uninstall(token: Self.token(4))
        io.writeOutput("  devices: " + phones.map(\.label).joined(separator: ", ") + " (the app was since deleted from Dev's old iPhone)\n")

        // The message.
        let message: JSONValue = [
            "title": "Your order shipped", "body": "Parcel 4242 arrives Thursday between 9 and 12.",
            "buttons": [
                ["id": "track", "text": "Track parcel", "url": "shop://orders/4242/track"],
                ["id": "cancel", "text": "Cancel order", "options": ["destructive", "authenticationRequired"]],
            ],
            "image": "https://images.demo.notibase/parcel.jpg", "url": "shop://orders/4242", "threadId": "orders",
        ]
        let sent = try await api.call("POST", "/v1/messages", key: serverKey, body: ["message": message, "audience": ["all": true]])
        guard let messageID = sent["id"].string else { throw APIClient.Failure(description: "no message ID in \(sent)") }
        io.writeOutput("  message: \(messageID) \"Your order shipped\", 2 buttons and an image, to every device\n\n")

        // Wait for every delivery to be sent (or to fail) and every phone to report.
        try await waitForDeliveries(api, messageID: messageID, key: serverKey, expected: phones.count)
        await fleet.waitUntilIdle()
        try await waitForReceipts(api, messageID: messageID, key: serverKey, rendered: 3)

        // Anna taps "Track parcel"; the app's delegate hands the response to the SDK.
        let anna = Self.token(1)
        let delegate = DemoDelegate(client: clients[anna]!)
        iPhones[anna]!.device.center.delegate = delegate
        if let drawn = iPhones[anna]!.drawn.first {
            _ = try await iPhones[anna]!.device.tap(button: "track", inNotification: drawn.requestIdentifier)
            _ = await clients[anna]!.flushNow()
            io.writeOutput("  Anna taps \"Track parcel\": the app opens \(delegate.opened.first?.absoluteString ?? "nothing")\n")
        }
        try await waitForReceipts(api, messageID: messageID, key: serverKey, rendered: 3, actions: 1)

        // The delivery log, as the API shows it.
        let deliveries = try await api.call("GET", "/v1/messages/\(messageID)/deliveries?limit=100", key: serverKey)
        let devices = try await api.call("GET", "/v1/devices?limit=100", key: serverKey)
        var labels: [String: String] = [:]
        for device in devices["items"].array {
            if let id = device["id"].string, let user = device["externalUserId"].string { labels[id] = user }
        }
        io.writeOutput("\nDelivery log (GET /v1/messages/\(messageID)/deliveries):\n")
        for delivery in (deliveries["items"].array).sorted(by: { labels[$0["deviceId"].string ?? ""] ?? "" < labels[$1["deviceId"].string ?? ""] ?? "" }) {
            let label = labels[delivery["deviceId"].string ?? ""] ?? "?"
            io.writeOutput("  \(label) (\(delivery["platform"].string ?? "")): \(delivery["state"].string ?? "")\n")
            for event in delivery["history"].array {
                io.writeOutput("      " + Self.describe(event) + "\n")
            }
        }

        io.writeOutput("\nWhat each device drew:\n")
        for phone in phones {
            switch phone.platform {
            case .ios:
                guard let drawn = iPhones[phone.token]?.drawn.first else {
                    io.writeOutput("  \(phone.label): nothing (the provider refused the token)\n")
                    continue
                }
                let buttons = drawn.buttons.map { "[\($0.title)]" }.joined(separator: " ")
                let image = drawn.attachments.first.map { "image \($0.type), \($0.fileSize) bytes" } ?? "no image"
                io.writeOutput("  \(phone.label): \"\(drawn.title)\" / \"\(drawn.body)\"  \(buttons)  \(image)\n")
            case .android:
                guard let drawn = fleet.android(phone.token)?.drawn.first else { continue }
                io.writeOutput("  \(phone.label): \"\(drawn.title)\" / \"\(drawn.body)\"  \(drawn.buttons.map { "[\($0)]" }.joined(separator: " "))  \(drawn.image.map { "image \($0)" } ?? drawn.imageFailure.map { "no image: \($0)" } ?? "no image")\n")
            }
        }
        if keepData { io.writeOutput("\nData kept in \(directory.path)\n") }
        if console {
            // Everything stays up: the phones keep answering and reporting while the user sends
            // more from the browser.
            let signals = SignalWaiter(signals: [SIGTERM, SIGINT])
            let tapping = Task { await Self.keepTapping(iPhones[anna]!, client: clients[anna]!) }
            defer { tapping.cancel() }
            io.writeOutput("""

                The console: \(serverURL.absoluteString)/console/
                  sign in with the server key  \(serverKey)
                  (apps page: the admin key    \(admin))
                The phones keep running, and Anna taps the first button of every notification she gets;
                Ctrl-C stops everything.

                """)
            _ = await signals.next()
        }
        await server.shutdown()
    }

    /// Anna, in `--console`: taps the first button of each new notification a moment after it is
    /// drawn, so that the console's funnel shows an action.
    private static func keepTapping(_ iPhone: SimulatedIPhone, client: NotibaseClient) async {
        var tapped = Set(iPhone.drawn.map(\.requestIdentifier))
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(500))
            for drawn in iPhone.drawn where !tapped.contains(drawn.requestIdentifier) {
                tapped.insert(drawn.requestIdentifier)
                guard let button = drawn.buttons.first else { continue }
                _ = try? await iPhone.device.tap(button: button.identifier, inNotification: drawn.requestIdentifier)
                _ = await client.flushNow()
            }
        }
    }

    private func waitForDeliveries(_ api: APIClient, messageID: String, key: String, expected: Int) async throws {
        for _ in 0..<200 {
            let message = try await api.call("GET", "/v1/messages/\(messageID)", key: key)
            if message["state"].string == "completed" { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw APIClient.Failure(description: "the message did not complete within 10 seconds")
    }

    private func waitForReceipts(_ api: APIClient, messageID: String, key: String, rendered: Int, actions: Int = 0) async throws {
        for _ in 0..<200 {
            let deliveries = try await api.call("GET", "/v1/messages/\(messageID)/deliveries?limit=100", key: key)
            let events = (deliveries["items"].array).flatMap { $0["history"].array }.compactMap { $0["event"].string }
            if events.filter({ $0 == "rendered" }).count >= rendered && events.filter({ $0 == "action" }).count >= actions { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw APIClient.Failure(description: "the devices' receipts did not arrive within 10 seconds")
    }

    static func describe(_ event: JSONValue) -> String {
        let name = event["event"].string ?? "?"
        var text = name
        switch name {
        case "sent":
            if let id = event["providerId"].string { text += " (provider id \(id.prefix(13))…)" }
        case "failed":
            text += ": " + (event["reason"].string ?? event["providerReason"].string ?? "")
        case "rendered":
            let render = event["render"]
            if render != .null {
                let buttons = render["buttons"].array.compactMap(\.string)
                text += " with \(buttons.count) button\(buttons.count == 1 ? "" : "s") (\(buttons.joined(separator: ", ")))"
                if render["imageAttached"].bool == true {
                    text += " and the image"
                } else if let failure = render["imageFailure"].string {
                    text += ", no image: \(failure)"
                }
            }
        case "action":
            if let action = event["actionId"].string { text += " \"\(action)\"" }
        default:
            break
        }
        return text
    }

    static func token(_ number: Int) -> String {
        String(format: "%064x", number * 0x1f2e3d4c5b6a7988)
    }

    static func bytes(hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return data
    }

    /// A small image: JPEG's signature and a body (the simulated system checks the type, not the
    /// pixels).
    static func pictureBytes() -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0x42, count: 24_000) + [0xFF, 0xD9]
    }
}

/// The app's notification delegate: hands every response to the Notibase SDK and opens the
/// destination it returns.
final class DemoDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    // @unchecked Sendable: `openedURLs` is guarded by `lock`.
    let client: NotibaseClient
    private let lock = NSLock()
    private var openedURLs: [URL] = []

    init(client: NotibaseClient) {
        self.client = client
    }

    var opened: [URL] {
        lock.lock()
        defer { lock.unlock() }
        return openedURLs
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {
        if let url = client.handle(response) {
            lock.lock()
            openedURLs.append(url)
            lock.unlock()
        }
        completionHandler()
    }
}
#endif
