#if canImport(NotibaseSimulator)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotibaseExtension

/// `notibase bench attach-memory --url URL`: the peak memory a download adds, streamed to disk by
/// the extension's downloader, against loading the same image into memory (what
/// `URLSession.data(from:)` does) in the same process. Peak resident memory is the kernel's
/// high-water mark (VmHWM); the streamed download runs first, so the buffered one cannot hide it.
enum AttachmentMemoryBenchmark {
    static let benchmark = Benchmark(
        name: "attach-memory",
        summary: "peak memory added by downloading an image for attachment, streamed vs buffered",
        usage: "notibase bench attach-memory --url http://127.0.0.1:PORT/image.jpg   (script/bench-extension serves one)",
        options: [.value("url")],
        run: { arguments, io in
            guard let url = arguments.value("url") else { throw UsageError("--url is required") }
            try await run(url: url, io: io)
            return 0
        })

    static func run(url: String, io: TerminalIO) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let downloader = ImageDownloader(policy: ImageDownloadPolicy(allowsLoopbackHTTP: true, directory: directory))

        // Warm up URLSession and the runtime with a small request, so the baseline includes them.
        _ = await downloader.fetch(url + "?warmup", timeout: .seconds(10))
        let baseline = peakResidentKilobytes()
        let result = await downloader.fetch(url, timeout: .seconds(30))
        let streamed = peakResidentKilobytes()
        guard case .downloaded(_, let type, let bytes) = result else {
            throw UsageError("the download failed: \(result)")
        }
        let session = URLSession(configuration: .ephemeral)
        let (data, _) = try await session.data(from: URL(string: url)!)
        let buffered = peakResidentKilobytes()
        io.writeOutput("""
            attachment memory: \(bytes) bytes (\(type.rawValue)) from \(url)
              peak resident before:            \(baseline) KiB
              streamed to disk (Notibase):     +\(streamed - baseline) KiB
              buffered in memory (data(from:)): +\(buffered - streamed) KiB more (held \(data.count) bytes)

            """)
    }

    /// VmHWM from /proc/self/status, in KiB.
    static func peakResidentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}
#endif
