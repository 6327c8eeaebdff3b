import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The docs' shell examples, run as a reader would copy them, in the page's order, against a
/// fresh `notibase serve` (the built binary, `--sender simulated`, as the pages say) on a free port.
///
/// The page's convention (docs/decisions/0031-docs-examples-are-run.md, read by ``DocExample``):
/// a command in a ```` ```sh ```` block, then `# 201 {…}` on the next line (or `# 204` at the end
/// of its line): the status the test requires and the fields it compares (``DocJSON``: `…`
/// leaves out a value, a part of a string, or more fields and elements). `NAME=$(…)` captures a
/// value for the examples after it; `ADMIN=nb_admin_…` is filled in with the test server's admin
/// key. `localhost:8080` becomes the server's address. A command saying `# not run here: why`, or
/// a block after `<!-- not run here: why -->`, is skipped, and the skips are printed with their
/// count. ```` ```json ```` blocks are illustrations, not compared.
@Suite("The docs' examples run as shown", .tags(.processes))
struct DocsExamplesTests {
    private static func page(_ path: String) throws -> String {
        try String(contentsOf: TestProducts.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("docs/server.md's API examples, in order, answer what the page shows")
    func serverPage() async throws {
        try await Self.runPage("docs/server.md", atLeast: 30)
    }

    /// The getting-started page's walk, on the settings it names (`--sender simulated`).
    @Test("docs/getting-started.md's walk answers what the page shows")
    func gettingStartedPage() async throws {
        try await Self.runPage("docs/getting-started.md", atLeast: 5)
    }

    /// Runs a page's examples in order against a fresh `notibase serve --sender simulated`, the
    /// settings the pages name for trying the loop without Apple or Google.
    private static func runPage(_ path: String, atLeast minimum: Int) async throws {
        let examples = DocExample.examples(in: try Self.page(path))
        let api = examples.filter { $0.command.contains("localhost:8080/v1/") || $0.captured != nil }
        #expect(api.count >= minimum, "the page's API examples were not found: \(api.count)")
        let data = TemporaryDirectory("notibase-docs-server")
        let work = TemporaryDirectory("notibase-docs-work")
        let server = try await ServerProcess.start(dataDirectory: data.path, arguments: ["--sender", "simulated"])
        var variables = ["ADMIN": Harness.adminKey]
        var skipped: [DocExample] = []
        for example in examples {
            if example.skipped != nil {
                skipped.append(example)
                continue
            }
            let command = example.command.replacingOccurrences(of: "localhost:8080", with: "127.0.0.1:\(server.port)")
            if let (name, value) = example.captured {
                if value.contains("…") {
                    #expect(variables[name] != nil, "\(example): the test has no value of its own for \(name)")
                    continue
                }
                let run = try await Self.run("\(name)=\(value); printf %s \"$\(name)\"", variables, in: work.path)
                #expect(!run.output.isEmpty && run.output != "null", "\(example) captured nothing: \(run.errors)")
                variables[name] = run.output
                continue
            }
            guard command.contains("127.0.0.1:\(server.port)") else {
                Issue.record("\(example) is neither a request to the server nor a capture: run it here or mark it (# not run here: why)")
                continue
            }
            let run = try await Self.run(command, variables, in: work.path)
            guard let status = example.status else {
                #expect(run.statuses.allSatisfy { $0 < 400 }, "\(example): answered \(run.statuses) \(run.output)")
                continue
            }
            #expect(run.statuses == [status], "\(example): answered \(run.statuses), the page shows \(status): \(run.output) \(run.errors)")
            guard let shown = example.shown, shown.hasPrefix("{") || shown.hasPrefix("[") else { continue }
            let pattern = try #require(DocJSON.parse(shown), "\(example): the answer the page shows is not JSON the test reads: \(shown)")
            let answer = try #require(DocJSON.parse(run.output), "\(example): the answer is not JSON: \(run.output)")
            if let problem = pattern.mismatch(answer) { Issue.record("\(example): \(problem)\n  answer: \(run.output)") }
        }
        print("\(path): \(examples.count - skipped.count) examples run, \(skipped.count) skipped:")
        for example in skipped { print("  skipped \(example) (\(example.skipped ?? ""))") }
        await server.terminate()
    }

    /// The README's quick start, from the repository's root: each line exits 0 and prints
    /// something, its input files exist, and `.build/release/notibase` is the binary the tests
    /// were built with. The build itself, and the demo that keeps running, are skipped.
    @Test("the README's quick start runs as shown")
    func readmeQuickStart() async throws {
        let readme = try Self.page("README.md")
        let section = try #require(readme.components(separatedBy: "## Quick start").dropFirst().first)
        let examples = DocExample.examples(in: String(try #require(section.components(separatedBy: "\n## ").first)))
        #expect(examples.count >= 5, "the quick start's commands were not found")
        let binary = try ServerProcess.binary()
        let notRun = [
            "swift build": "the test runs the build it is part of",
            "--console": "it keeps running until Ctrl-C",
        ]
        var skipped = 0
        for example in examples {
            #expect(!example.command.contains(".build/debug"), "\(example): the README builds release")
            if let reason = notRun.first(where: { example.command.contains($0.key) })?.value {
                print("README.md quick start: skipped \(example) (\(reason))")
                skipped += 1
                continue
            }
            for input in example.command.matches(of: /< (\S+)/).map({ String($0.output.1) }) {
                #expect(FileManager.default.fileExists(atPath: TestProducts.packageRoot.appendingPathComponent(input).path), "\(example): \(input) does not exist")
            }
            let command = example.command.replacingOccurrences(of: ".build/release/notibase", with: binary)
            let run = try await Self.run(command, [:], in: TestProducts.packageRoot.path)
            #expect(run.exitStatus == 0 && !run.output.isEmpty, "\(example) failed (\(run.exitStatus)): \(run.output) \(run.errors)")
        }
        print("README.md quick start: \(examples.count - skipped) commands run, \(skipped) skipped")
    }

    /// `Examples/payload.json` is what `notibase render` makes of `Examples/message.json` (with the
    /// delivery and message IDs it names), so the quick start's preview is of that message.
    @Test("Examples/payload.json is the payload of Examples/message.json")
    func examplePayload() async throws {
        let root = TestProducts.packageRoot.appendingPathComponent("Examples")
        let payload = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("payload.json"))) as? NSDictionary
        let deliveryID = try #require(payload?["nb_delivery"] as? String)
        let messageID = try #require(payload?["nb_message"] as? String)
        let render = try runToCompletion(
            try ServerProcess.binary(), ["render", "--platform", "ios", "--json", "--delivery-id", deliveryID, "--message-id", messageID],
            input: try String(contentsOf: root.appendingPathComponent("message.json"), encoding: .utf8))
        #expect(render.status == 0)
        let request = try JSONSerialization.jsonObject(with: Data(render.output.utf8)) as? NSDictionary
        #expect(request?["body"] as? NSDictionary == payload, "Examples/payload.json is not what notibase render makes of Examples/message.json: \(render.output)")
    }

    /// What an elided answer on a page matches, and what it does not.
    @Test("an answer shown with … matches what it shows and nothing else")
    func elisions() throws {
        let shown = try #require(DocJSON.parse(#"{"id": "…", "key": "nb_server_…", "items": [{"state": "sent", …}, …], "tags": ["a"], …}"#))
        let answer = #"{"id": 7, "key": "nb_server_x1", "items": [{"state": "sent", "n": 1}, {"state": "queued"}], "tags": ["a"], "more": null}"#
        #expect(shown.mismatch(try #require(DocJSON.parse(answer))) == nil)
        for wrong in [
            #"{"id": 7, "key": "nb_client_x1", "items": [{"state": "sent"}], "tags": ["a"]}"#,
            #"{"id": 7, "key": "nb_server_x1", "items": [{"state": "queued"}], "tags": ["a"]}"#,
            #"{"id": 7, "key": "nb_server_x1", "items": [], "tags": ["a"]}"#,
            #"{"id": 7, "key": "nb_server_x1", "items": [{"state": "sent"}], "tags": ["a", "b"]}"#,
            #"{"key": "nb_server_x1", "items": [{"state": "sent"}], "tags": ["a"]}"#,
        ] {
            #expect(shown.mismatch(try #require(DocJSON.parse(wrong))) != nil, "\(wrong) matched")
        }
        #expect(DocJSON.parse(#"{"items": [the app]}"#) == nil)
    }

    /// Every page names the release build (`.build/release/notibase`, or the installed `notibase`),
    /// as the README builds it. docs/benchmarks.md is left out: it records the command each figure
    /// was measured with, debug builds included.
    @Test("the docs name release builds")
    func releaseBuilds() throws {
        for path in try Self.pages() where path != "docs/benchmarks.md" {
            let page = try Self.page(path)
            let (debug, run) = (page.contains(".build/debug"), page.contains("swift run"))
            #expect(!debug, "\(path) names .build/debug")
            #expect(!run, "\(path) runs swift run")
        }
    }

    /// Each error code the docs give with its status (`403 \`invalid_signature\``, or in a row of
    /// an errors table, `| 409 | \`already_finished\` … |`) is one the server's sources send.
    @Test("every error code the docs name is one the server sends")
    func errorCodes() throws {
        let sources = try Self.serverSources()
        var codes: Set<String> = []
        for path in try Self.pages() {
            for line in try Self.page(path).components(separatedBy: "\n") {
                codes.formUnion(line.matches(of: /\b[1-5][0-9][0-9] `([a-z]+(?:_[a-z]+)+)`/).map { String($0.output.1) })
                if line.wholeMatch(of: /\| [1-5][0-9][0-9] \|.*/) != nil {
                    // Not a field the error carries: `(with \`issues\`: …)`.
                    let named = line.matches(of: /`([a-z]+(?:_[a-z]+)*)`/).filter { !line[..<$0.range.lowerBound].hasSuffix("with ") }
                    codes.formUnion(named.map { String($0.output.1) })
                }
            }
        }
        #expect(codes.isSuperset(of: ["invalid_signature", "unknown_delivery", "identity_required", "busy"]), "the codes were not found: \(codes.sorted())")
        for code in codes.sorted() {
            let sent = sources.contains("\"\(code)\"")
            #expect(sent, "the docs name the error \(code), which the server never sends")
        }
    }

    private static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: TestProducts.packageRoot.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// The server's Swift sources, one string.
    /// The server's sources: every layer target of it (Package.swift, "Server, in layers").
    private static func serverSources() throws -> String {
        let layers = ["Domain", "Store", "SQLite", "Postgres", "HTTP", "Outbound", "Webhooks", "Delivery", "Services", "API", "Server"]
        return try layers.map { layer in
            let root = TestProducts.packageRoot.appendingPathComponent("Sources/Notibase\(layer)")
            let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            #expect(!files.isEmpty, "no sources in \(root.path)")
            return try files.map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Runs `command` in bash in `directory` with `variables`, its curl answering its status on a
    /// side file: what it printed, its statuses (one a request) and its standard error.
    private static func run(_ command: String, _ variables: [String: String], in directory: String) async throws
        -> (output: String, statuses: [Int], errors: String, exitStatus: Int32) {
        let statusFile = "\(FileManager.default.temporaryDirectory.path)/notibase-docs-statuses-\(UUID().uuidString)"
        let script = """
            set -o pipefail
            cd "\(directory)"
            curl() { command curl -w '%{stderr}%{http_code}\\n' "$@" 2>>"\(statusFile)"; }
            \(command)
            """
        let child = try ChildProcess("/bin/bash", ["-c", script], environment: variables, capturesStandardError: true)
        child.closeInput()
        let output = await child.allOutput()
        let exitStatus = await child.exit()
        let statuses = ((try? String(contentsOfFile: statusFile, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0) }
        try? FileManager.default.removeItem(atPath: statusFile)
        return (output.trimmingCharacters(in: .whitespacesAndNewlines), statuses, child.standardErrorText, exitStatus)
    }
}
