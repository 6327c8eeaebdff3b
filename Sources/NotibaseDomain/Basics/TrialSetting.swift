/// A setting for tests, demos and development that a production server must not run with: each
/// is announced at start (a warning in the log, a line on standard error), in `/healthz`'s
/// `trial` list, as `notibase_trial_mode` in `/metrics`, and in a banner on every console page.
package enum TrialSetting: String, Sendable, CaseIterable {
    /// `--sender simulated`: no push leaves the server.
    case senderSimulated = "sender=simulated"
    /// `--sender accept`: no push leaves the server.
    case senderAccept = "sender=accept"
    /// `--webhook-allow-insecure`: webhooks may go over http to loopback and private addresses.
    case webhookAllowInsecure = "webhook-allow-insecure"

    /// How `/metrics` labels it (`notibase_trial_mode{setting="sender_simulated"}`).
    package var metricLabel: String {
        switch self {
        case .senderSimulated: "sender_simulated"
        case .senderAccept: "sender_accept"
        case .webhookAllowInsecure: "webhook_allow_insecure"
        }
    }

    /// The option and its environment variable, as an operator would look for them.
    package var option: String {
        switch self {
        case .senderSimulated: "--sender simulated (NOTIBASE_SENDER=simulated)"
        case .senderAccept: "--sender accept (NOTIBASE_SENDER=accept)"
        case .webhookAllowInsecure: "--webhook-allow-insecure (NOTIBASE_WEBHOOK_ALLOW_INSECURE=on)"
        }
    }

    /// What it means for the apps using the server.
    package var consequence: String {
        switch self {
        case .senderSimulated:
            "nothing is delivered to Apple or Google: every push is answered by a simulated device and counted as sent"
        case .senderAccept:
            "nothing is delivered to Apple or Google: every push is accepted at once and counted as sent"
        case .webhookAllowInsecure:
            "webhooks may be sent over plain http and to loopback and private addresses (this machine, the internal network)"
        }
    }
}
