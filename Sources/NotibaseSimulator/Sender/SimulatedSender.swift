import Foundation
import NotibaseCore
import NotibaseExtension
package import NotibaseSenders

/// A sender that plays APNs and FCM for simulated phones: it checks what the providers check
/// (payload size), answers as they do (accepted with an id; 410 Unregistered for an uninstalled
/// app; 429 for a throttled device, as the real senders report it: retried later, FCM's no
/// sooner than its quota floor), and hands each accepted push to the phone with that token, where
/// the real Notibase extension renders it and posts real receipts. A token with no simulated phone
/// is accepted and goes nowhere, as for a phone that is switched off.
package struct SimulatedSender: Sender {
    package let fleet: SimulatedFleet

    package init(fleet: SimulatedFleet) {
        self.fleet = fleet
    }

    package func send(_ pushes: [Push]) async -> [SendOutcome] {
        pushes.map(send)
    }

    private func send(_ push: Push) -> SendOutcome {
        let token = push.request.deviceToken
        if fleet.isUnregistered(token) {
            switch push.request {
            case .apns:
                return SendOutcome(
                    disposition: .deactivateDevice, status: 410, providerReason: "Unregistered",
                    explanation: "the app was removed from the simulated iPhone", tokenInvalidSince: Date())
            case .fcm:
                return SendOutcome(
                    disposition: .deactivateDevice, status: 404, providerReason: "UNREGISTERED",
                    explanation: "the app was removed from the simulated Android phone")
            }
        }
        if fleet.takeThrottled(token) {
            switch push.request {
            case .apns: return .apnsAnswer(status: 429, reason: "TooManyRequests")
            case .fcm: return .fcmAnswer(status: 429, code: "QUOTA_EXCEEDED")
            }
        }
        switch push.request {
        case .apns(let request):
            guard request.body.count <= APNsRenderer.payloadLimit else {
                return SendOutcome(
                    disposition: .failed, status: 413, providerReason: "PayloadTooLarge",
                    explanation: "the payload is over 4096 bytes")
            }
            let apnsID = request.header("apns-id") ?? UUID().uuidString.lowercased()
            if request.header("apns-push-type") == "background" {
                // iOS draws nothing and runs no extension: the app's delegate gets the payload.
                fleet.iPhone(token)?.receiveInBackground(body: request.body)
            } else if let phone = fleet.iPhone(token),
                let payload = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            {
                let userInfo = Locked(Dictionary(uniqueKeysWithValues: payload.map { (AnyHashable($0.key), $0.value) }))
                fleet.deliverInBackground { await phone.receive(payload: userInfo.withLock { $0 }, identifier: apnsID) }
            }
            return .sent(providerID: apnsID)
        case .fcm(let request):
            let name = "projects/simulated/messages/\(UUID().uuidString.lowercased())"
            if let phone = fleet.android(token) {
                let body = request.body
                fleet.deliverInBackground { await phone.receive(fcmBody: body) }
            }
            return .sent(providerID: name)
        }
    }

    package func shutdown() async {
        await fleet.waitUntilIdle()
    }
}
