public import Foundation

extension SimulatedDevice {
    /// Delivers a remote notification as iOS does, and returns what was drawn.
    ///
    /// The system runs `serviceExtension` only for `aps.mutable-content` 1 (read from the content's
    /// `userInfo`, which for a remote notification is the payload) and alert text. It calls
    /// `didReceive` on a background thread; if the content handler is not called within
    /// `serviceExtensionTimeBudget` it calls `serviceExtensionTimeWillExpire()` on a separate thread,
    /// waits `expirationGracePeriod`, and if the handler is still not called shows the original
    /// content. Content without alert text from the extension is ignored. Attachments are then
    /// validated again and moved into the store; buttons come from the category registered under
    /// the content's category identifier at that moment. The notification joins the center's
    /// delivered notifications, replacing one with the same request identifier.
    ///
    /// - Parameters:
    ///   - request: The notification; build one from a payload with `SimulatedPayload`.
    ///   - serviceExtension: The app's extension, or `nil` when the app has none.
    @discardableResult
    public func deliver(_ request: UNNotificationRequest, to serviceExtension: UNNotificationServiceExtension?) async -> DrawnNotification {
        let call = Unchecked((request, serviceExtension))
        return await withCheckedContinuation { continuation in
            Self.startThread(named: "UserNotificationsShim delivery (\(name))") { [weak self] in
                // The caller keeps the device alive while it waits; the thread must not outlive that.
                guard let drawn = self?.runDelivery(call.value.0, call.value.1) else { return }
                continuation.resume(returning: drawn)
            }
        }
    }

    /// Delivers an APNs payload as a remote notification (see `SimulatedPayload.request(from:identifier:)`).
    @discardableResult
    public func deliver(payload: [AnyHashable: Any], identifier: String = UUID().uuidString,
                        to serviceExtension: UNNotificationServiceExtension?) async -> DrawnNotification {
        await deliver(SimulatedPayload.request(from: payload, identifier: identifier), to: serviceExtension)
    }

    // Runs on its own thread and blocks it while the extension works.
    private func runDelivery(_ request: UNNotificationRequest, _ serviceExtension: UNNotificationServiceExtension?) -> DrawnNotification {
        let start = ContinuousClock.now
        let settings = deliverySettings
        let original = request.content.snapshot
        var extensionOutcome = ExtensionOutcome(reason: Self.reasonNotToRun(original, serviceExtension))
        var run: ExtensionRun?
        if let serviceExtension, extensionOutcome.reason == nil {
            let thisRun = ExtensionRun(termination: extensionTermination)
            run = thisRun
            extensionOutcome = runExtension(serviceExtension, request, thisRun, start: start, settings: settings)
        }
        var shown = extensionOutcome.content ?? original
        let attachments = attachmentStore.keep(shown.attachments, handling: settings.handling)
        shown.attachments = attachments.stored

        let buttons = DrawnButtons(categoryIdentifier: shown.categoryIdentifier, registered: system.categories)
        let displayed = UNNotificationRequest(requestIdentifier: request.identifier, content: UNNotificationContent(fields: shown),
                                              trigger: request.trigger)
        let notification = UNNotification(date: Date(), request: displayed)
        var foreground: [DrawnNotification.PresentationOption]?
        if appIsInForeground {
            let options = askDelegateToPresent(notification)
            foreground = DrawnNotification.PresentationOption.all(in: options)
            if options.contains(.list) || options.contains(.banner) || options.contains(UNNotificationPresentationOptions(rawValue: 1 << 2)) {
                system.addDelivered(notification)
            }
        } else {
            system.addDelivered(notification)
        }

        let drawn = DrawnNotification(
            requestIdentifier: request.identifier, title: shown.title, subtitle: shown.subtitle, body: shown.body,
            categoryIdentifier: shown.categoryIdentifier, threadIdentifier: shown.threadIdentifier,
            badge: shown.badge?.intValue, sound: shown.sound?.payloadName,
            interruptionLevel: DrawnNotification.InterruptionLevel(shown.interruptionLevel),
            relevanceScore: shown.relevanceScore, targetContentIdentifier: shown.targetContentIdentifier,
            buttons: buttons.buttons, bannerButtons: Array(buttons.buttons.prefix(2)), buttonsReason: buttons.reason,
            categoryOptions: buttons.categoryOptions,
            attachments: attachments.drawn, droppedAttachments: attachments.dropped,
            contentSource: extensionOutcome.content == nil ? .original : .serviceExtension,
            contentReason: extensionOutcome.reason ?? .serviceExtensionContent,
            serviceExtensionTimeWillExpireCalled: extensionOutcome.expireCalled,
            contentHandlerCallCount: extensionOutcome.callCount, violations: extensionOutcome.violations,
            elapsedSeconds: start.duration(to: .now).seconds, foregroundPresentation: foreground,
            serviceExtensionPeakMemoryGrowth: extensionOutcome.peakMemoryGrowth)
        deliveries.withLock { $0[request.identifier] = DeliveryRecord(drawn: drawn, run: run) }
        return drawn
    }

    private struct ExtensionOutcome {
        /// The extension's content, when it is the one shown.
        var content: ContentFields?
        /// Why the original is shown; `nil` when the extension's content is.
        var reason: DrawnNotification.ContentReason?
        var expireCalled = false
        var callCount = 0
        var violations: [DrawnNotification.Violation] = []
        var peakMemoryGrowth: Int?
    }

    /// Why iOS would not run the extension, or `nil` if it would.
    private static func reasonNotToRun(_ content: ContentFields, _ serviceExtension: UNNotificationServiceExtension?)
        -> DrawnNotification.ContentReason? {
        guard serviceExtension != nil else { return .noServiceExtension }
        let aps = content.userInfo["aps"] as? [AnyHashable: Any]
        guard PayloadValue.integer(aps?["mutable-content"]) == 1 else { return .mutableContentNotSet }
        guard content.hasAlertText else { return .noAlertText }
        return nil
    }

    private func runExtension(_ serviceExtension: UNNotificationServiceExtension, _ request: UNNotificationRequest,
                              _ run: ExtensionRun, start: ContinuousClock.Instant,
                              settings: DeliverySettings)
        -> ExtensionOutcome {
        let call = Unchecked((serviceExtension, request))
        let bind = system.bind
        extensionRunsInProgress.withLock { $0 += 1 }
        let stillInProgress = Locked(true)
        let containers = settings.sharedContainers
        let runsInProgress = extensionRunsInProgress
        // Once this run handed over its content (or the system gave up on it): when no other run is
        // in progress, iOS may suspend the process, which must then hold no lock in a shared container.
        // Checked at that moment, on the thread that hands over, as iOS would suspend it then.
        @Sendable func handedOver() -> Bool {
            let first = stillInProgress.withLock { inProgress -> Bool in
                defer { inProgress = false }
                return inProgress
            }
            guard first else { return false }
            let remaining = runsInProgress.withLock { count -> Int in
                count -= 1
                return count
            }
            return remaining == 0 && !containers.isEmpty && HeldFileLocks.any(under: containers)
        }
        let lockedWhenHandedOver = Locked(false)
        defer { _ = handedOver() }
        Self.startThread(named: "UserNotificationsShim didReceive (\(name))") {
            bind {
                call.value.0.didReceive(call.value.1) { content in
                    // Before the waiting side hears of the call: the lock is judged as it is now.
                    if handedOver() { lockedWhenHandedOver.withLock { $0 = true } }
                    run.contentHandlerCalled(with: content)
                }
            }
        }
        var outcome = ExtensionOutcome()
        let memory = settings.memoryLimit.map { MemoryWatch(limit: $0) }
        var called = false
        if let memory {
            // Sampled while waiting: past the limit, iOS kills the extension.
            while !called, ContinuousClock.now < start + settings.budget {
                called = run.waitForContentHandler(until: min(.now + MemoryWatch.interval, start + settings.budget))
                if memory.sample() {
                    outcome.peakMemoryGrowth = memory.peak
                    outcome.violations.append(.memoryLimitExceeded)
                    outcome.reason = .serviceExtensionExceededMemoryLimit
                    return outcome
                }
            }
            outcome.peakMemoryGrowth = memory.peak
        } else {
            called = run.waitForContentHandler(until: start + settings.budget)
        }
        if !called {
            outcome.expireCalled = true
            Self.startThread(named: "UserNotificationsShim serviceExtensionTimeWillExpire (\(name))") {
                bind { call.value.0.serviceExtensionTimeWillExpire() }
            }
            called = run.waitForContentHandler(until: .now + settings.grace)
        }
        if called, lockedWhenHandedOver.withLock({ $0 }) {
            outcome.violations.append(.fileLockHeldWhileSuspended)
        }
        if called {
            // Keep listening briefly, to catch a second call right after the first.
            Thread.sleep(forTimeInterval: settings.settle.seconds)
        }
        outcome.callCount = run.callCount
        if outcome.callCount == 0 {
            outcome.violations.append(.contentHandlerNeverCalled)
            outcome.reason = .serviceExtensionTimedOut
        } else if outcome.callCount > 1 {
            outcome.violations.append(.contentHandlerCalledMoreThanOnce)
        }
        if let content = run.content {
            if content.hasAlertText {
                outcome.content = content
            } else {
                outcome.reason = .serviceExtensionContentHasNoAlertText
            }
        }
        return outcome
    }

    /// Starts a thread of the simulated system.
    static func startThread(named name: String, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread(block: work)
        thread.name = name
        thread.start()
    }
}

/// The buttons the system draws for a category identifier from the registered categories.
struct DrawnButtons {
    var buttons: [DrawnNotification.Button] = []
    var reason: DrawnNotification.ButtonsReason
    var categoryOptions: [DrawnNotification.CategoryOption] = []

    /// At most this many buttons appear when the system has room for all (Apple: "up to 10").
    static let maximumCount = 10

    init(categoryIdentifier: String, registered: Set<UNNotificationCategory>) {
        guard !categoryIdentifier.isEmpty else {
            reason = .noCategoryIdentifier
            return
        }
        let matches = registered.filter { $0.identifier == categoryIdentifier }
            .sorted { $0.description < $1.description }
        guard let category = matches.first else {
            reason = .categoryNotRegistered
            return
        }
        buttons = category.actions.prefix(Self.maximumCount).map(DrawnNotification.Button.init)
        categoryOptions = DrawnNotification.CategoryOption.all(in: category.options)
        if matches.count > 1 {
            reason = .ambiguousCategory
        } else {
            reason = buttons.isEmpty ? .categoryHasNoActions : .registeredCategory
        }
    }
}

extension DrawnNotification.Button {
    init(_ action: UNNotificationAction) {
        let textInput = (action as? UNTextInputNotificationAction).map {
            DrawnNotification.TextInput(buttonTitle: $0.textInputButtonTitle, placeholder: $0.textInputPlaceholder)
        }
        let icon = action.icon.map {
            DrawnNotification.Icon(source: $0.source == .systemImage ? .systemImage : .templateImage, name: $0.imageName)
        }
        var options: [DrawnNotification.ButtonOption] = []
        if action.options.contains(.authenticationRequired) { options.append(.authenticationRequired) }
        if action.options.contains(.destructive) { options.append(.destructive) }
        if action.options.contains(.foreground) { options.append(.foreground) }
        self.init(identifier: action.identifier, title: action.title, options: options, icon: icon, textInput: textInput)
    }
}

extension DrawnNotification.PresentationOption {
    static func all(in options: UNNotificationPresentationOptions) -> [Self] {
        var result: [Self] = []
        if options.contains(.badge) { result.append(.badge) }
        if options.contains(.sound) { result.append(.sound) }
        if options.contains(UNNotificationPresentationOptions(rawValue: 1 << 2)) { result.append(.alert) }
        if options.contains(.list) { result.append(.list) }
        if options.contains(.banner) { result.append(.banner) }
        return result
    }
}

extension DrawnNotification.CategoryOption {
    static func all(in options: UNNotificationCategoryOptions) -> [Self] {
        var result: [Self] = []
        if options.contains(.customDismissAction) { result.append(.customDismissAction) }
        if options.contains(.allowInCarPlay) { result.append(.allowInCarPlay) }
        if options.contains(.hiddenPreviewsShowTitle) { result.append(.hiddenPreviewsShowTitle) }
        if options.contains(.hiddenPreviewsShowSubtitle) { result.append(.hiddenPreviewsShowSubtitle) }
        return result
    }
}

extension DrawnNotification.InterruptionLevel {
    init(_ level: UNNotificationInterruptionLevel) {
        switch level {
        case .passive: self = .passive
        case .active: self = .active
        case .timeSensitive: self = .timeSensitive
        case .critical: self = .critical
        }
    }
}

/// How far the process's resident memory has grown since the watch began (Linux: /proc/self/statm).
final class MemoryWatch {
    static let interval = Duration.milliseconds(5)
    let limit: Int
    private let baseline: Int
    private(set) var peak = 0

    init(limit: Int) {
        self.limit = limit
        baseline = Self.resident()
    }

    /// Samples once; true when the growth is past the limit.
    func sample() -> Bool {
        peak = max(peak, Self.resident() - baseline)
        return peak > limit
    }

    /// The resident set size in bytes (0 when it cannot be read).
    static func resident() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// File locks (`flock`, `fcntl`) this process holds, from `/proc/locks`.
enum HeldFileLocks {
    /// Whether this process holds a lock on a file under one of `directories`.
    static func any(under directories: [URL]) -> Bool {
        #if os(Linux)
        guard let table = wholeFile("/proc/locks") else { return false }
        let pid = String(getpid())
        var inodes: Set<UInt64> = []
        for line in table.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 2330 fe:00:16223281 0 EOF"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[4] == pid, let inode = fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) else { continue }
            inodes.insert(inode)
        }
        guard !inodes.isEmpty else { return false }
        for directory in directories {
            guard let walker = FileManager.default.enumerator(atPath: directory.path) else { continue }
            while let relative = walker.nextObject() as? String {
                var info = stat()
                if stat(directory.appendingPathComponent(relative).path, &info) == 0, inodes.contains(UInt64(info.st_ino)) { return true }
            }
        }
        return false
        #else
        return false
        #endif
    }

    /// A file read to its end. Not `String(contentsOfFile:)`, which reads a file of `/proc` (whose
    /// size says 0) only as far as its first read: with a few thousand locks in the process (the
    /// test pass's databases), the lock looked for was past it, and went unseen.
    static func wholeFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }
}
