package import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// The senders the delivery workers hand pushes to: one per platform, and where their credentials
/// come from. The server knows nothing else about them, so a new kind of sender (the simulated
/// devices of `notibase demo`) plugs in by building a `SenderSet`, with no server change.
package struct SenderSet: Sendable {
    /// Where the credentials in each `Push` come from.
    package enum Credentials: Sendable {
        /// The app's stored APNs / FCM credentials; a delivery for an app without them fails with
        /// a message saying how to upload them.
        case stored
        /// Not needed (the accepting and simulated senders): each push carries placeholder credentials with
        /// the app's ID and nothing secret.
        case notRequired
    }

    /// Sends to iOS devices (APNs).
    package var ios: any Sender
    /// Sends to Android devices (FCM).
    package var android: any Sender
    /// Where credentials come from.
    package var credentials: Credentials
    /// The provider label in metrics for each platform (`apns`, `fcm`, `accept`, `simulated`).
    package var providerNames: [Platform: String]
    /// Set for senders that deliver nothing to Apple or Google (accepting, simulated): the server
    /// then says loudly that it runs in a trial mode.
    package var trialSetting: TrialSetting?

    package init(
        ios: any Sender, android: any Sender, credentials: Credentials, providerNames: [Platform: String] = [.ios: "apns", .android: "fcm"],
        trialSetting: TrialSetting? = nil
    ) {
        self.ios = ios
        self.android = android
        self.credentials = credentials
        self.providerNames = providerNames
        self.trialSetting = trialSetting
    }

    package func sender(for platform: Platform) -> any Sender {
        platform == .ios ? ios : android
    }

    /// One sender that accepts every push and sends nothing, for benchmarks and crash tests
    /// (`--sender accept`): see ``AcceptingSender``.
    package static func accepting(_ sender: AcceptingSender) -> SenderSet {
        SenderSet(ios: sender, android: sender, credentials: .notRequired, providerNames: [.ios: "accept", .android: "accept"], trialSetting: .senderAccept)
    }

    /// Placeholders for a build without the APNs and FCM senders: every push is retried later
    /// with an explanation, so nothing is lost and nothing is claimed to be sent.
    package static let unavailable = SenderSet(
        ios: UnavailableSender(provider: "APNs"), android: UnavailableSender(provider: "FCM"), credentials: .stored)
}

/// A sender that cannot send: every push is an outcome of `retry` that says why.
package struct UnavailableSender: Sender {
    package let provider: String

    package init(provider: String) {
        self.provider = provider
    }

    package func send(_ pushes: [Push]) async -> [SendOutcome] {
        pushes.map { _ in
            SendOutcome(disposition: .retry, explanation: "this server has no \(provider) sender; run a build that includes it", retryAfter: .seconds(60))
        }
    }

    package func shutdown() async {}
}
