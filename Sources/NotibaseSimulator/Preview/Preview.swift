import Foundation
package import NotibaseCore
@preconcurrency import UserNotificationsShim
import NotibaseExtension

/// What iOS would draw for a payload, and why anything is missing: the real Notibase extension
/// run against a simulated device. Behind `notibase preview`, the tool that answers "why do my
/// buttons never appear".
package struct Preview: Sendable {
    /// How the preview runs.
    package struct Options: Sendable {
        /// Categories the app registers itself at launch.
        package var appCategories: [AppCategory] = []
        /// Whether the app ships the Notibase extension (without it, no Notibase button appears).
        package var withExtension = true
        /// The extension's budget before it hands back what it has.
        package var deadline: Duration = .seconds(10)
        /// Plain http images from this machine (for local testing only; iOS refuses http).
        package var allowsLoopbackHTTP = false

        /// The defaults: the Notibase extension, no app categories.
        package init() {}
    }

    package var options: Options

    /// A preview with the given options.
    package init(options: Options = Options()) {
        self.options = options
    }

    /// Renders `message` as the server would and previews the payload.
    package func run(message: Message) async throws(RenderError) -> PreviewResult {
        let request = try APNsRenderer(message: message, topic: nil, includesReceiptIDs: false).render(
            DeliveryContext(deviceToken: "preview", now: Date()))
        let payload = (try? JSONDecoder().decode(JSONValue.self, from: Data(request.body))) ?? .object([:])
        return await run(payload: payload, payloadBytes: request.body.count)
    }

    /// Previews an APNs payload; `payloadBytes` is its size on the wire, when known.
    package func run(payload: JSONValue, payloadBytes: Int? = nil) async -> PreviewResult {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-preview-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }

        let device = SimulatedDevice(name: "preview", attachmentStoreDirectory: files.appendingPathComponent("store"))
        device.center.setNotificationCategories(Set(options.appCategories.map { $0.makeCategory() }))
        let reports = ReportCollector()
        var configuration = ExtensionConfiguration()
        configuration.deadline = options.deadline
        configuration.imagePolicy = ImageDownloadPolicy(allowsLoopbackHTTP: options.allowsLoopbackHTTP, directory: files)
        configuration.sharedDirectory = files
        configuration.renderObserver = { report, _ in reports.add(report) }
        let service = options.withExtension ? PreviewService(configuration: configuration) : nil

        let parsed = NotificationPayload(json: payload)
        let userInfo = (payload.foundationValue as? [String: Any]) ?? [:]
        let drawn = await device.deliver(
            payload: Dictionary(uniqueKeysWithValues: userInfo.map { (AnyHashable($0.key), $0.value) }), identifier: "preview",
            to: service)
        let bytes = payloadBytes ?? Self.compactSize(of: payload)
        let report = drawn.contentSource == .serviceExtension || drawn.serviceExtensionTimeWillExpireCalled
            ? await reports.first(waiting: .seconds(1)) : nil
        return PreviewResult(drawn: drawn, payload: parsed, report: report, payloadBytes: bytes, options: options)
    }

    static func compactSize(of payload: JSONValue) -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(payload).count) ?? 0
    }
}

/// The render reports the extension produced.
final class ReportCollector: @unchecked Sendable {
    // @unchecked Sendable: `reports` is guarded by `lock`.
    private let lock = NSLock()
    private var reports: [RenderReport] = []

    func add(_ report: RenderReport) {
        lock.lock()
        reports.append(report)
        lock.unlock()
    }

    private func current() -> RenderReport? {
        lock.withLock { reports.first }
    }

    /// Waits briefly for the report, which is produced just after the handler is called.
    func first(waiting timeout: Duration) async -> RenderReport? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let report = current() { return report }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }
}
