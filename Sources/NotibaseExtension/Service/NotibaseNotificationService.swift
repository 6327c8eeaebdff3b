import Foundation
import NotibaseCore

/// Notibase's Notification Service Extension. An app integrates it with one line in its extension
/// target:
///
/// ```swift
/// nonisolated class NotificationService: NotibaseNotificationService {}
/// ```
///
/// For each notification with `mutable-content`, it reads the buttons from `nb_buttons`, registers
/// a matching category (merging with the app's own, never replacing them), downloads `nb_image`
/// and attaches it, and calls the content handler exactly once: with everything when done, with
/// the best content so far when its deadline passes or iOS calls
/// `serviceExtensionTimeWillExpire()`, with the original content on failure. It then posts a
/// render report to the Notibase server when one is configured.
///
/// Configuration comes from the extension's Info.plist (see ``ExtensionConfiguration/fromBundle(_:)``);
/// override ``configuration`` to set it in code.
open class NotibaseNotificationService: UNNotificationServiceExtension {
    /// Every notification this instance is still working on: iOS may hand one instance several
    /// notifications, and `serviceExtensionTimeWillExpire` is about all of them.
    private let inProgress = Locked([UUID: Finishing]())

    /// What `serviceExtensionTimeWillExpire` needs to finish a notification in progress.
    private struct Finishing: Sendable {
        var gate: ContentGate
        var engine: NotificationEngine
        var payload: NotificationPayload
        /// Cancels the work still running for it.
        var work: Locked<Task<Void, Never>?>
    }

    /// The configuration; by default read from the extension's Info.plist.
    open var configuration: ExtensionConfiguration {
        ExtensionConfiguration.fromBundle()
    }

    /// Creates the extension (iOS does this for each notification).
    public override init() {
        super.init()
    }

    /// The image downloader; override to change how images are fetched.
    open func makeImageFetcher(configuration: ExtensionConfiguration) -> any ImageFetching {
        ImageDownloader(policy: configuration.imagePolicy)
    }

    /// The category store; override to change where categories are registered. Every extension
    /// instance on one center shares the first store made for it.
    open func makeCategoryStore(center: UNUserNotificationCenter) -> any CategoryStore {
        SystemCategoryStore(center: center)
    }

    /// The receipt poster; override to change how reports are sent.
    open func makeReceiptPoster(configuration: ExtensionConfiguration) -> (any ReceiptPosting)? {
        configuration.receiptEndpoint.map(HTTPReceiptPoster.init(endpoint:))
    }

    open override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let configuration = configuration
        let payload = NotificationPayload(userInfo: request.content.userInfo)

        let center = UNUserNotificationCenter.current()
        let registrar = CategoryRegistrar.shared(for: center) {
            Self.makeRegistrar(store: makeCategoryStore(center: center), configuration: configuration)
        }
        let engine = NotificationEngine(
            registrar: registrar, images: makeImageFetcher(configuration: configuration),
            receipts: makeReceiptPoster(configuration: configuration), configuration: configuration)
        let gate = ContentGate(original: request.content, payload: payload, handler: contentHandler) { report in
            // Finished early, work may still run: the process may be suspended once the handler is
            // called, and must not hold the lock shared with the app then.
            if report.completion != .complete { registrar.abandonRunningRegistration() }
            return engine.record(report, payload: payload)
        }
        let key = UUID()
        let inProgress = inProgress
        let work = Locked<Task<Void, Never>?>(nil)
        inProgress.withLock { $0[key] = Finishing(gate: gate, engine: engine, payload: payload, work: work) }

        work.withLock { work in
            work = Task {
                if let report = await engine.process(payload, gate: gate) {
                    inProgress.withLock { $0[key] = nil }
                    await engine.deliver(report, receipt: gate.recordedReceipt, payload: payload)
                }
            }
        }
        // When the work ends first, the deadline finds the gate closed and does nothing.
        DispatchQueue.global().asyncAfter(deadline: .now() + configuration.deadline.timeInterval) {
            inProgress.withLock { $0[key] = nil }
            Self.finishEarly(gate, .deadline, engine: engine, payload: payload, work: work)
        }
    }

    /// Finishes a notification before its work ended: the work is cancelled first (a registration
    /// not yet holding the lock shared with the app never takes it; one holding it lets go, see
    /// the gate's `record`), then the handler is called with the best content so far.
    private static func finishEarly(
        _ gate: ContentGate, _ completion: RenderReport.Completion, engine: NotificationEngine, payload: NotificationPayload,
        work: Locked<Task<Void, Never>?>
    ) {
        // Finished already: the work is posting its report (kept in the outbox anyway): let it.
        guard !gate.isFinished else { return }
        work.withLock { $0?.cancel() }
        if let report = gate.finish(completion) {
            Task { await engine.deliver(report, receipt: gate.recordedReceipt, payload: payload) }
        }
    }

    /// Finishes every notification this instance is still working on, each with its best content
    /// so far.
    open override func serviceExtensionTimeWillExpire() {
        let all = inProgress.withLock { all in
            defer { all = [:] }
            return Array(all.values)
        }
        for finishing in all {
            Self.finishEarly(finishing.gate, .timeWillExpire, engine: finishing.engine, payload: finishing.payload, work: finishing.work)
        }
    }

    private static func makeRegistrar(store: any CategoryStore, configuration: ExtensionConfiguration) -> CategoryRegistrar {
        let directory = configuration.sharedDirectory ?? NotificationEngine.privateDirectory
        return CategoryRegistrar(
            store: store,
            ledger: FileCategoryLedger(directory: directory),
            capacity: configuration.categoryCapacity,
            readTimeout: configuration.categoryReadTimeout,
            inFlightWindow: configuration.categoryInFlightWindow,
            crossProcessLock: configuration.sharedDirectory.map(FileCategoryLock.init(directory:)),
            confirmationTimeout: configuration.categoryConfirmationTimeout)
    }
}
