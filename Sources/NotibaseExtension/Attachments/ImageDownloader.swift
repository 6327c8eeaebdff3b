import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``ImageFetching`` with URLSession, streaming to disk: the extension has only tens of megabytes
/// of memory, so the image is never held in memory whole. The size limit is enforced while the
/// bytes arrive (also when the server announces no length), redirects are counted, and the
/// whole download has a deadline.
///
/// A `Content-Type` naming another type (WebP, HTML) is refused at once; otherwise the file's first
/// bytes decide (iOS drops a file whose contents are not the type claimed), and the file is named
/// with that type's extension, as `UNNotificationAttachment` requires.
public struct ImageDownloader: ImageFetching {
    /// What is accepted.
    public let policy: ImageDownloadPolicy

    /// A downloader with the given policy.
    public init(policy: ImageDownloadPolicy = ImageDownloadPolicy()) {
        self.policy = policy
    }

    public func fetch(_ url: String, timeout: Duration) async -> ImageFetchResult {
        let parsed = URL(string: url)
        if let refusal = policy.refusal(for: parsed) { return .failed(reason: refusal) }
        guard let parsed else { return .failed(reason: "the image URL is not a valid URL") }
        let download = StreamingDownload(url: parsed, policy: policy)
        return await download.run(timeout: timeout)
    }
}

/// One download: the URLSession delegate that writes each chunk to a file as it arrives.
private final class StreamingDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: URLSession calls the delegate on its serial delegate queue; the state
    // shared with the deadline timer and the caller is behind `state`'s lock.
    private struct State {
        var file: FileHandle?
        var path: URL?
        var received = 0
        var prefix: [UInt8] = []
        var contentType: ImageType.Detection = .unknown
        var redirects = 0
        var failure: String?
        /// When the last redirect was decided (see `afterRedirectSettles`).
        var lastRedirect: ContinuousClock.Instant?
        var continuation: CheckedContinuation<ImageFetchResult, Never>?
        var finished = false
    }

    private let url: URL
    private let policy: ImageDownloadPolicy
    private let state = Locked(State())

    init(url: URL, policy: ImageDownloadPolicy) {
        self.url = url
        self.policy = policy
    }

    func run(timeout: Duration) async -> ImageFetchResult {
        let configuration = URLSessionConfiguration.ephemeral
        // The precise deadline is the timer below; URLSession's own timeouts are a backstop
        // (FoundationNetworking on Linux fails at once with sub-second values).
        configuration.timeoutIntervalForRequest = timeout.timeInterval.rounded(.up) + 1
        configuration.timeoutIntervalForResource = timeout.timeInterval.rounded(.up) + 1
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        let task = session.dataTask(with: url)
        let taskBox = UncheckedSendable(task)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ImageFetchResult, Never>) in
                state.withLock { $0.continuation = continuation }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) { [weak self] in
                    guard let self else { return }
                    fail("the image did not arrive within \(Self.describe(timeout))")
                    afterRedirectSettles { taskBox.value.cancel() }
                }
                task.resume()
            }
        } onCancel: {
            fail("the extension stopped waiting for the image")
            afterRedirectSettles { taskBox.value.cancel() }
        }
        let sessionBox = UncheckedSendable(session)
        afterRedirectSettles { sessionBox.value.invalidateAndCancel() }
        return result
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            fail("the image server did not answer with HTTP")
            return completionHandler(.cancel)
        }
        guard (200..<300).contains(http.statusCode) else {
            fail("the image server answered HTTP \(http.statusCode)")
            return completionHandler(.cancel)
        }
        if http.expectedContentLength > Int64(policy.maximumBytes) {
            fail("the image is \(http.expectedContentLength) bytes; iOS attaches images up to \(policy.maximumBytes) bytes")
            return completionHandler(.cancel)
        }
        let detection = ImageType.fromContentType(http.value(forHTTPHeaderField: "Content-Type"))
        if case .unsupported(let mime) = detection {
            fail("the image is \(mime); iOS notifications show JPEG, PNG and GIF")
            return completionHandler(.cancel)
        }
        try? FileManager.default.createDirectory(at: policy.directory, withIntermediateDirectories: true)
        let path = policy.directory.appendingPathComponent("notibase-" + UUID().uuidString + ".download")
        guard FileManager.default.createFile(atPath: path.path, contents: nil), let handle = try? FileHandle(forWritingTo: path) else {
            fail("the image could not be written to \(policy.directory.path)")
            return completionHandler(.cancel)
        }
        state.withLock { state in
            state.contentType = detection
            state.file = handle
            state.path = path
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = state.withLock { state -> Bool in
            guard !state.finished, let file = state.file else { return false }
            state.received += data.count
            if state.received > policy.maximumBytes { return true }
            if state.prefix.count < 16 { state.prefix.append(contentsOf: data.prefix(16 - state.prefix.count)) }
            do {
                try file.write(contentsOf: data)
            } catch {
                state.failure = "the image could not be written: \(error.localizedDescription)"
            }
            return false
        }
        if overLimit {
            fail("the image is larger than \(policy.maximumBytes) bytes, the most iOS attaches; the download was stopped")
            dataTask.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let redirects = state.withLock { state -> Int in
            state.redirects += 1
            state.lastRedirect = .now
            return state.redirects
        }
        // Refusing a redirect is `completionHandler(nil)` alone: cancelling the task here as well
        // crashes FoundationNetworking on Linux ("Received callback for HTTP redirection, but we're
        // not waiting for it"). The download is already failed, so what follows is ignored.
        if redirects > policy.maximumRedirects {
            fail("the image URL redirected more than \(policy.maximumRedirects) times (a redirect loop?)")
            return completionHandler(nil)
        }
        if let refusal = policy.refusal(for: request.url) {
            fail("the image URL redirected to a URL that is refused: " + refusal)
            return completionHandler(nil)
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            let code = (error as? URLError)?.code
            fail(code == .timedOut ? "the image server did not answer in time" : "the image download failed: \(error.localizedDescription)")
            return
        }
        finishSuccessfully()
    }

    // MARK: Finishing

    private func finishSuccessfully() {
        let (result, continuation) = state.withLock { state -> (ImageFetchResult?, CheckedContinuation<ImageFetchResult, Never>?) in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            try? state.file?.close()
            state.file = nil
            if let failure = state.failure {
                Self.remove(state.path)
                return (.failed(reason: failure), state.continuation)
            }
            guard let path = state.path, state.received > 0 else {
                Self.remove(state.path)
                return (.failed(reason: "the image server sent an empty body"), state.continuation)
            }
            // The bytes decide, whatever the server says: iOS decodes the file and drops one whose
            // contents are not the type claimed (an HTML error page served as image/jpeg).
            let found = ImageType.fromMagic(state.prefix)
            let type: ImageType
            switch (state.contentType, found) {
            case (.unsupported(let mime), _):
                Self.remove(path)
                return (.failed(reason: "the image is \(mime); iOS notifications show JPEG, PNG and GIF"), state.continuation)
            case (_, let found?):
                type = found
            case (.supported(let declared), nil):
                Self.remove(path)
                return (.failed(reason: "the server called it \(declared.mimeType), but its bytes are not an image (\(Self.describe(state.prefix))); iOS would drop it"),
                        state.continuation)
            case (.unknown, nil):
                Self.remove(path)
                return (.failed(reason: "the image's bytes are not JPEG, PNG or GIF (\(Self.describe(state.prefix))); iOS would drop it"),
                        state.continuation)
            }
            let named = path.deletingPathExtension().appendingPathExtension(type.fileExtension)
            do {
                try FileManager.default.moveItem(at: path, to: named)
            } catch {
                Self.remove(path)
                return (.failed(reason: "the image file could not be renamed: \(error.localizedDescription)"), state.continuation)
            }
            return (.downloaded(file: named, type: type, bytes: state.received), state.continuation)
        }
        if let result { continuation?.resume(returning: result) }
    }

    private func fail(_ reason: String) {
        let continuation = state.withLock { state -> CheckedContinuation<ImageFetchResult, Never>? in
            guard !state.finished else { return nil }
            state.finished = true
            try? state.file?.close()
            state.file = nil
            Self.remove(state.path)
            return state.continuation
        }
        continuation?.resume(returning: .failed(reason: reason))
    }

    /// Runs `cancel` now, or a moment later when a redirect was just decided: FoundationNetworking
    /// on Linux finishes a redirect asynchronously after the delegate answers, and crashes if the
    /// task was cancelled in between.
    private func afterRedirectSettles(_ cancel: @escaping @Sendable () -> Void) {
        let settle = Duration.milliseconds(250)
        let last = state.withLock { $0.lastRedirect }
        guard let last, ContinuousClock.now - last < settle else { return cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + settle.timeInterval, execute: cancel)
    }

    private static func remove(_ path: URL?) {
        if let path { try? FileManager.default.removeItem(at: path) }
    }

    /// What a file that is not an image starts with, in a few words.
    static func describe(_ prefix: [UInt8]) -> String {
        let text = String(decoding: prefix, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.hasPrefix("<") { return "it starts like an HTML or XML page: an error page?" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "it starts like JSON: an error answer?" }
        if prefix.starts(with: Array("RIFF".utf8)) { return "it starts like WebP" }
        if prefix.count >= 12, prefix[4..<8].elementsEqual("ftyp".utf8) { return "it starts like HEIC or MP4" }
        return "it starts with " + prefix.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")
    }

    private static func describe(_ duration: Duration) -> String {
        let seconds = duration.timeInterval
        return seconds < 1 ? "\(Int(seconds * 1000)) ms" : String(format: "%.1f s", seconds)
    }
}
