public import Foundation
public import NotibaseCore

/// The content handler, called exactly once: with the full content when the work is done, or with
/// the best content so far when the deadline passes or iOS says time is up, or with the original
/// content when the content cannot be copied. Whoever comes second finds the gate closed.
///
/// It also keeps the best content so far (``DeliveryPlan``), updated as each piece of work ends.
public final class ContentGate: @unchecked Sendable {
    // @unchecked Sendable: the handler and the original content are UN objects (not Sendable);
    // they are touched only inside `finish`, once, under `lock`'s protection of `handler`.
    private let lock = NSLock()
    private var handler: ((UNNotificationContent) -> Void)?
    private var plan: DeliveryPlan
    private var report: RenderReport?
    private var receipt: Receipt?
    private let record: (@Sendable (RenderReport) -> Receipt?)?
    private var reportWaiters: [CheckedContinuation<RenderReport, Never>] = []
    private let original: UNNotificationContent
    private let start: ContinuousClock.Instant

    /// A gate for one notification. `record` keeps the render report where it survives the
    /// process (the receipt outbox), and is called before the handler: iOS may end the extension
    /// the instant the handler is called, so nothing after it is sure to happen.
    public init(
        original: UNNotificationContent, payload: NotificationPayload, handler: @escaping (UNNotificationContent) -> Void,
        record: (@Sendable (RenderReport) -> Receipt?)? = nil
    ) {
        self.original = original
        self.handler = handler
        self.record = record
        self.plan = DeliveryPlan(payload: payload)
        self.start = .now
    }

    /// Whether the handler was called.
    public var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return handler == nil
    }

    /// The report, once finished.
    public var renderReport: RenderReport? {
        lock.lock()
        defer { lock.unlock() }
        return report
    }

    /// The receipt `record` made for the report, kept until it is posted (nil before the handler
    /// was called, or without `record`).
    public var recordedReceipt: Receipt? {
        lock.lock()
        defer { lock.unlock() }
        return receipt
    }

    /// Records progress. Returns false when the gate has already closed (the change came too late).
    @discardableResult
    public func update(_ change: (inout DeliveryPlan) -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard handler != nil else { return false }
        change(&plan)
        return true
    }

    /// Calls the handler with the best content so far, unless it was called already; returns the
    /// render report when this call was the one that finished.
    @discardableResult
    public func finish(_ completion: RenderReport.Completion) -> RenderReport? {
        lock.lock()
        guard let handler else {
            lock.unlock()
            return nil
        }
        self.handler = nil
        let plan = plan
        lock.unlock()

        var completion = completion
        var imageFailure = plan.imageFailure
        let content: UNNotificationContent
        if let mutable = original.mutableCopy() as? UNMutableNotificationContent {
            if let categoryID = plan.registeredCategoryID {
                mutable.categoryIdentifier = categoryID
            }
            if let image = plan.image {
                do {
                    let attachment = try UNNotificationAttachment(
                        identifier: "nb_image", url: image.file,
                        options: [UNNotificationAttachmentOptionsTypeHintKey: image.type.uniformTypeIdentifier])
                    mutable.attachments = [attachment]
                } catch {
                    imageFailure = "iOS refused the image file: \(error)"
                    try? FileManager.default.removeItem(at: image.file)
                }
            } else if plan.payload.imageURL != nil, imageFailure == nil {
                imageFailure = completion == .complete
                    ? "the image was not downloaded" : "the image was still downloading when time ran out"
            }
            content = mutable
        } else {
            completion = .failed
            content = original
        }
        let report = RenderReport(
            categoryID: completion == .failed ? original.categoryIdentifier.nilIfEmpty : plan.shownCategoryID(original: original),
            buttons: completion == .failed ? [] : plan.registeredButtonIDs,
            imageAttached: completion != .failed && plan.image != nil && imageFailure == nil,
            imageFailure: imageFailure,
            completion: completion,
            elapsedMilliseconds: Int((ContinuousClock.now - start).timeInterval * 1000),
            diagnostics: plan.diagnostics)
        // Written down first: the process may not outlive the handler call.
        let receipt = record?(report)
        lock.lock()
        self.receipt = receipt
        lock.unlock()
        handler(content)
        lock.lock()
        self.report = report
        let waiters = reportWaiters
        reportWaiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume(returning: report) }
        return report
    }

    /// Waits until the handler was called, and returns the render report.
    public func waitForReport() async -> RenderReport {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let report {
                lock.unlock()
                continuation.resume(returning: report)
            } else {
                reportWaiters.append(continuation)
                lock.unlock()
            }
        }
    }
}

/// What the extension has achieved so far for one notification.
public struct DeliveryPlan: Sendable {
    /// The payload as read.
    public var payload: NotificationPayload
    /// The category registration's outcome, when it has ended.
    public var category: CategoryRegistrar.Outcome?
    /// The downloaded image, when it is ready.
    public var image: (file: URL, type: ImageType)?
    /// Why there is no image, when the download failed.
    public var imageFailure: String?
    /// Problems found on the way, for the report.
    public var diagnostics: [String]

    init(payload: NotificationPayload) {
        self.payload = payload
        diagnostics = payload.diagnostics.map(\.description)
    }

    /// The derived category, once it is registered.
    var registeredCategoryID: String? {
        guard let category, category.isRegistered else { return nil }
        return category.identifier
    }

    /// The buttons iOS will draw from the registered category.
    var registeredButtonIDs: [String] {
        registeredCategoryID == nil ? [] : payload.buttons.map(\.id)
    }

    func shownCategoryID(original: UNNotificationContent) -> String? {
        registeredCategoryID ?? original.categoryIdentifier.nilIfEmpty
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
