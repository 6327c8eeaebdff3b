import Foundation
public import NotibaseCore

/// The work behind the extension, free of the extension class so that it can be tested: register
/// the category for the payload's buttons and download its image, at the same time, recording
/// each result in the gate as it comes; then finish the gate.
public struct NotificationEngine: Sendable {
    /// Registers categories (shared by every extension instance on the center).
    public let registrar: CategoryRegistrar
    /// Downloads images.
    public let images: any ImageFetching
    /// Posts render reports, when configured.
    public let receipts: (any ReceiptPosting)?
    /// Budgets and limits.
    public let configuration: ExtensionConfiguration

    /// An engine from its parts.
    public init(registrar: CategoryRegistrar, images: any ImageFetching, receipts: (any ReceiptPosting)?, configuration: ExtensionConfiguration) {
        self.registrar = registrar
        self.images = images
        self.receipts = receipts
        self.configuration = configuration
    }

    /// Does the work for one notification and finishes the gate with `.complete` (unless the
    /// deadline finished it first). Returns the render report when this call finished the gate.
    @discardableResult
    public func process(_ payload: NotificationPayload, gate: ContentGate) async -> RenderReport? {
        let registersCategory = !payload.buttons.isEmpty && !payload.namesAppCategory
        if !payload.buttons.isEmpty && payload.namesAppCategory {
            gate.update { $0.diagnostics.append("aps.category names the app's own category \(payload.category ?? ""); its buttons are the app's") }
        }
        if let imageURL = payload.imageURL {
            // Both at once: the category while the image downloads.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await fetchImage(imageURL, gate: gate) }
                if registersCategory { await registerCategory(payload.buttons, gate: gate) }
            }
        } else if registersCategory {
            await registerCategory(payload.buttons, gate: gate)
        }
        return gate.finish(.complete)
    }

    private func registerCategory(_ buttons: [Button], gate: ContentGate) async {
        let outcome = await registrar.register(buttons)
        gate.update { plan in
            plan.category = outcome
            switch outcome {
            case .failed(_, let reason): plan.diagnostics.append("category not registered: " + reason)
            case .unconfirmed(let identifier):
                plan.diagnostics.append(
                    "category \(identifier) was written but could not be confirmed: reading the set back for "
                        + "\(Self.describe(registrar.confirmationTimeout)) did not show it, so iOS may draw no buttons")
            case .registered, .alreadyRegistered: break
            }
        }
    }

    private func fetchImage(_ url: String, gate: ContentGate) async {
        let result = await images.fetch(url, timeout: configuration.deadline)
        let accepted = gate.update { plan in
            switch result {
            case .downloaded(let file, let type, _): plan.image = (file, type)
            case .failed(let reason): plan.imageFailure = reason
            }
        }
        if !accepted, case .downloaded(let file, _, _) = result {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// The receipt for a render report, written to the outbox: called by the gate before the
    /// content handler, so that the report reaches the server even when iOS ends the process the
    /// moment the handler is called (the app's next launch, or the next extension run, posts it).
    /// Nil for a notification without a delivery ID.
    public func record(_ report: RenderReport, payload: NotificationPayload) -> Receipt? {
        guard let deliveryID = payload.deliveryID else { return nil }
        let receipt = Receipt(
            id: UUID().uuidString.lowercased(), deliveryID: deliveryID, messageID: payload.messageID, event: .rendered,
            occurredAt: Date(), render: report, signature: payload.receiptSignature)
        outbox.add(receipt)
        return receipt
    }

    /// Hands a finished report to the observer and posts its receipt (recorded before the handler
    /// was called), best effort; then posts what earlier runs left in the outbox.
    public func deliver(_ report: RenderReport, receipt: Receipt?, payload: NotificationPayload) async {
        configuration.renderObserver?(report, payload)
        guard let receipts else { return }
        if let receipt {
            switch await receipts.send(receipt, timeout: configuration.receiptTimeout) {
            case .accepted, .rejected: outbox.remove(receipt)
            case .retryLater: return  // offline: the rest would fail too
            }
        }
        await outbox.flush(with: receipts, timeout: configuration.receiptTimeout, limit: Self.flushLimit)
    }

    static func describe(_ duration: Duration) -> String {
        let milliseconds = Int(duration.timeInterval * 1000)
        return milliseconds < 1000 ? "\(milliseconds) ms" : "\(Double(milliseconds) / 1000) s"
    }

    /// How many receipts of earlier runs one extension run posts at most.
    static let flushLimit = 20

    /// Where receipts wait: the shared directory (so that the app posts them too), else the
    /// extension's own caches (posted by a later extension run).
    var outbox: ReceiptOutbox {
        ReceiptOutbox(shared: configuration.sharedDirectory ?? Self.privateDirectory)
    }

    /// The extension's own caches directory.
    static var privateDirectory: URL {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first ?? FileManager.default.temporaryDirectory
    }
}
