/// How a message's funnel is counted, for every store: a delivery counts once per step however many
/// receipts say it; rendered with buttons when the render report drew any, with the image when it
/// was attached; received for a silent background push the app got; by button on the tap's `actionId`; a failed delivery under its last failure's
/// provider reason, else the server's reason.
package struct FunnelSteps: FunnelCounting {
    package let rules = FunnelRules(
        reported: [
            ReportedStep(name: "rendered", event: "rendered"),
            ReportedStep(name: "renderedWithButtons", event: "rendered", detail: .nonEmptyArray(["render", "buttons"])),
            ReportedStep(name: "renderedWithImage", event: "rendered", detail: .isTrue(["render", "imageAttached"])),
            ReportedStep(name: "received", event: "received"),
            ReportedStep(name: "opened", event: "opened"),
            ReportedStep(name: "dismissed", event: "dismissed"),
        ],
        actionEvent: "action", actionKey: "actionId",
        failed: DeliveryState.failed.rawValue, reasonKeys: ["providerReason", "reason"], fallbackReason: "unknown",
        exampleKey: "reason", explanationKey: "explanation")

    package func funnel(_ counts: FunnelCounts) -> Funnel {
        var funnel = Funnel(byState: counts.byState, sent: counts.sent, actions: counts.actions, failures: counts.failures)
        funnel.rendered = counts.reported["rendered", default: 0]
        funnel.renderedWithButtons = counts.reported["renderedWithButtons", default: 0]
        funnel.renderedWithImage = counts.reported["renderedWithImage", default: 0]
        funnel.received = counts.reported["received", default: 0]
        funnel.opened = counts.reported["opened", default: 0]
        funnel.dismissed = counts.reported["dismissed", default: 0]
        return funnel
    }

    package init() {}
}
