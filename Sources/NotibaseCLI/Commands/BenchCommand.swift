/// `notibase bench <what>`: benchmarks that print figures (never timed tests). Each benchmark runs
/// its comparison in the same process, so the figures are measured side by side.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "run a benchmark and print its figures (render, apns, …)"
    static var usage: String {
        "notibase bench <benchmark> [options]\n\nbenchmarks:\n"
            + benchmarks.map { "  \($0.name): \($0.summary)\n      \($0.usage)" }.joined(separator: "\n")
    }
    /// Every benchmark's options; benchmarks that share a name (`--count`) share the option.
    static var options: [OptionSpec] {
        var seen: Set<String> = []
        return benchmarks.flatMap(\.options).filter { seen.insert($0.name).inserted }
    }

    static var benchmarks: [Benchmark] {
        var benchmarks = [RenderBenchmark.benchmark, APNsSenderBenchmark.benchmark]
        #if canImport(NotibaseSimulator)
        benchmarks += [ExtensionBenchmark.benchmark, AttachmentMemoryBenchmark.benchmark]
        #endif
        return benchmarks
    }

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        guard let name = arguments.positional.first else {
            throw UsageError("name a benchmark: " + benchmarks.map(\.name).joined(separator: ", "))
        }
        guard let benchmark = benchmarks.first(where: { $0.name == name }) else {
            throw UsageError("unknown benchmark '\(name)'; the benchmarks are " + benchmarks.map(\.name).joined(separator: ", "))
        }
        try arguments.expectPositional(atMost: 1)
        return try await benchmark.run(arguments, io)
    }
}

/// One benchmark under `notibase bench`.
struct Benchmark: Sendable {
    var name: String
    var summary: String
    var usage: String
    var options: [OptionSpec]
    var run: @Sendable (Arguments, TerminalIO) async throws -> Int32
}
