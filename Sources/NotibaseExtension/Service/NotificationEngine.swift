import Foundation
import NotibaseCore

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
            if case .failed(_, let reason) = outcome { plan.diagnostics.append("category not registered: " + reason) }
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

    /// Hands a finished report to the observer and posts it, best effort.
    public func deliver(_ report: RenderReport, payload: NotificationPayload) async {
        configuration.renderObserver?(report, payload)
        await postReport(report, payload: payload)
    }

    /// Posts the render report for a finished gate, best effort, within the receipt timeout. With
    /// a shared directory it goes through the outbox first, so the app posts it later if this
    /// process is stopped or offline.
    public func postReport(_ report: RenderReport, payload: NotificationPayload) async {
        guard let deliveryID = payload.deliveryID else { return }
        let receipt = Receipt(
            id: UUID().uuidString.lowercased(), deliveryID: deliveryID, messageID: payload.messageID, event: .rendered,
            occurredAt: Date(), render: report, signature: payload.receiptSignature)
        let outbox = configuration.sharedDirectory.map(ReceiptOutbox.init(shared:))
        outbox?.add(receipt)
        guard let receipts else { return }
        switch await receipts.send(receipt, timeout: configuration.receiptTimeout) {
        case .accepted, .rejected: outbox?.remove(receipt)
        case .retryLater: break
        }
    }
}
