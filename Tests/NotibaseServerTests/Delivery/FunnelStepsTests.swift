import Foundation
import NotibaseCore
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
@testable import NotibaseServerTestSupport

/// How a message's funnel is counted, without a database: the rules name what the server writes in
/// a history entry's detail (each store turns them into its SQL), and the counts make the funnel.
@Suite struct FunnelStepsTests {
    let rules = FunnelSteps().rules

    /// The detail as stored, read as JSON.
    func stored(_ detail: DeliveryEventDetail) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(detail.stored.utf8)) as? [String: Any])
    }

    /// Whether a condition holds for a stored detail, read the way the stores' SQL reads it.
    func holds(_ condition: DetailCondition, _ detail: DeliveryEventDetail) throws -> Bool {
        let json = try stored(detail)
        func value(_ path: [String]) -> Any? { path.reduce(json as Any?) { ($0 as? [String: Any])?[$1] } }
        switch condition {
        case .any: return true
        case .nonEmptyArray(let path): return (value(path) as? [Any])?.isEmpty == false
        case .isTrue(let path): return value(path) as? Bool == true
        }
    }

    func rendered(buttons: [String], image: Bool) -> DeliveryEventDetail {
        DeliveryEventDetail(receiptID: "r", render: RenderReport(categoryID: nil, buttons: buttons, imageAttached: image, completion: .complete, elapsedMilliseconds: 12))
    }

    @Test func aRenderCountsWithButtonsAndWithTheImageOnlyWhenItsReportSaysSo() throws {
        let steps = Dictionary(uniqueKeysWithValues: rules.reported.map { ($0.name, $0) })
        let (plain, full) = (rendered(buttons: [], image: false), rendered(buttons: ["reply"], image: true))
        for name in ["rendered", "renderedWithButtons", "renderedWithImage"] {
            let step = try #require(steps[name])
            #expect(step.event == Receipt.Event.rendered.rawValue)
            #expect(try holds(step.detail, full), "\(name) counts a render that drew buttons and the image")
            #expect(try holds(step.detail, plain) == (name == "rendered"), "\(name) on a render that drew neither")
        }
        for event in [Receipt.Event.opened, .dismissed] {
            #expect(steps[event.rawValue]?.event == event.rawValue && steps[event.rawValue]?.detail == .any)
        }
    }

    @Test func actionsAndFailuresAreCountedByTheKeysTheServerWrites() throws {
        #expect(rules.actionEvent == Receipt.Event.action.rawValue)
        #expect(try stored(DeliveryEventDetail(receiptID: "r", actionID: "reply"))[rules.actionKey] as? String == "reply")
        // A worker's failure entry is named after the state it reaches.
        #expect(rules.failed == DeliveryUpdate(seq: 1, state: .failed).event)
        let provider = try stored(DeliveryEventDetail(status: 400, providerReason: "BadDeviceToken", explanation: "Register again.", reason: "the provider refused it"))
        #expect(rules.reasonKeys.compactMap { provider[$0] as? String }.first == "BadDeviceToken", "the provider's reason first")
        #expect(provider[rules.exampleKey] as? String == "the provider refused it")
        #expect(provider[rules.explanationKey] as? String == "Register again.")
        let server = try stored(.because("the retry budget ran out"))
        #expect(rules.reasonKeys.compactMap { server[$0] as? String }.first == "the retry budget ran out", "else the server's")
    }

    @Test func theCountsMakeTheFunnel() {
        let counts = FunnelCounts(
            byState: ["sent": 3, "failed": 1], sent: 4, reported: ["rendered": 3, "renderedWithButtons": 2, "renderedWithImage": 1, "opened": 2],
            actions: ["reply": 1], failures: [(reason: "BadDeviceToken", count: 1, example: nil, explanation: "Register again.")])
        let funnel = FunnelSteps().funnel(counts)
        #expect(funnel.byState == ["sent": 3, "failed": 1] && funnel.sent == 4)
        #expect([funnel.rendered, funnel.renderedWithButtons, funnel.renderedWithImage, funnel.opened] as [Int] == [3, 2, 1, 2])
        #expect(funnel.dismissed == 0, "a step no delivery reached")
        #expect(funnel.actions == ["reply": 1])
        #expect(funnel.failures.map(\.reason) == ["BadDeviceToken"] && funnel.failures.first?.explanation == "Register again.")
    }
}
