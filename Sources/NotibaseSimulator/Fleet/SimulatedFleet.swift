package import Foundation
import NotibaseCore
package import NotibaseExtension

/// The simulated phones a `SimulatedSender` delivers to, by device token.
package final class SimulatedFleet: Sendable {
    private struct Phones {
        var iPhones: [String: SimulatedIPhone] = [:]
        var androids: [String: SimulatedAndroid] = [:]
        var unregistered: Set<String> = []
        var throttled: [String: Int] = [:]
        var inFlight = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let phones = Locked(Phones())
    private let endpoint: Locked<ReceiptEndpoint?>
    private let directory: URL
    /// How phones reach image hosts.
    package let images: ImageRoutes

    /// A fleet whose phones keep their files under `directory`.
    package init(directory: URL, receiptEndpoint: ReceiptEndpoint? = nil, images: ImageRoutes = ImageRoutes()) {
        self.directory = directory
        endpoint = Locked(receiptEndpoint)
        self.images = images
    }

    /// Where phones added from now on post receipts (the server and the app's client key). Often
    /// known only once the server runs and the app exists, after the sender was made.
    package var receiptEndpoint: ReceiptEndpoint? {
        get { endpoint.withLock { $0 } }
        set { endpoint.withLock { $0 = newValue } }
    }

    /// Adds an iPhone with the app (and its Notibase extension) installed.
    @discardableResult
    package func addIPhone(name: String, token: String, appCategories: [AppCategory] = []) -> SimulatedIPhone {
        let phone = SimulatedIPhone(
            name: name, token: token, receiptEndpoint: receiptEndpoint, appCategories: appCategories, images: images,
            directory: directory.appendingPathComponent("iphone-\(token.suffix(16))"))
        phones.withLock { $0.iPhones[token] = phone }
        return phone
    }

    /// Adds an Android phone with the app installed.
    @discardableResult
    package func addAndroid(name: String, token: String) -> SimulatedAndroid {
        let phone = SimulatedAndroid(
            name: name, token: token, receiptEndpoint: receiptEndpoint, images: images, directory: directory.appendingPathComponent("android-\(token.suffix(16))"))
        phones.withLock { $0.androids[token] = phone }
        return phone
    }

    /// Makes the provider answer that `token` is no longer registered (the app was uninstalled).
    package func uninstall(token: String) {
        phones.withLock { _ = $0.unregistered.insert(token) }
    }

    /// Makes the provider refuse the next `pushes` pushes to `token` as too many for one device
    /// (APNs 429 `TooManyRequests`, FCM 429 `QUOTA_EXCEEDED`), then accept again.
    package func throttle(token: String, pushes: Int = 1) {
        phones.withLock { $0.throttled[token, default: 0] += pushes }
    }

    /// The iPhone with `token`, if the fleet has one.
    package func iPhone(_ token: String) -> SimulatedIPhone? { phones.withLock { $0.iPhones[token] } }
    /// The Android phone with `token`, if the fleet has one.
    package func android(_ token: String) -> SimulatedAndroid? { phones.withLock { $0.androids[token] } }
    func isUnregistered(_ token: String) -> Bool { phones.withLock { $0.unregistered.contains(token) } }
    /// Whether this push to `token` is refused as throttled (one of the pushes `throttle` counted).
    func takeThrottled(_ token: String) -> Bool {
        phones.withLock { state in
            guard let left = state.throttled[token], left > 0 else { return false }
            state.throttled[token] = left > 1 ? left - 1 : nil
            return true
        }
    }

    /// Runs a delivery to a phone in the background, counted until it ends.
    func deliverInBackground(_ work: @escaping @Sendable () async -> Void) {
        phones.withLock { $0.inFlight += 1 }
        Task.detached { [phones] in
            await work()
            let waiters = phones.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.inFlight -= 1
                guard state.inFlight == 0 else { return [] }
                defer { state.idleWaiters = [] }
                return state.idleWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Waits until every delivery handed to a phone has been drawn (and its receipt posted).
    package func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = phones.withLock { state -> Bool in
                if state.inFlight == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }
}
