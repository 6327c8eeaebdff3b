import Foundation
public import Testing

/// The main pass runs every suite of the `<Module>Tests` targets at once (`script/test` sets
/// `NOTIBASE_TEST_PASS=main` for it and for the PostgreSQL pass). A test there that starts a
/// process must have been put there on purpose: ``ChildProcess`` records an issue when a test of
/// the main pass starts one without the `.processes` tag (on itself or a suite around it), so a
/// server, peer or browser started beside every other suite fails until someone chooses: a pass's
/// target (`<Module><Pass>Tests`) or the tag (decision 0035).
public enum MainPass {
    /// The pass `script/test` is running, from `NOTIBASE_TEST_PASS`; nil outside `script/test`.
    public static var current: String? { ProcessInfo.processInfo.environment["NOTIBASE_TEST_PASS"] }

    /// What is wrong with a test tagged `tags`, in `pass`, starting `executable`; nil when nothing.
    public static func problem(starting executable: String, pass: String?, test: String, tags: Set<Tag>) -> String? {
        guard pass == "main", !tags.contains(.processes) else { return nil }
        return "\(test) starts \(executable) in the main pass, beside every other suite: move its file to a pass's "
            + "target (Tests/<Module><Pass>Tests), or tag its suite .processes if it is light (docs/decisions/0035)"
    }

    /// Set by `runToEnd` and `runToCompletion`: a command run to its end is not a process beside
    /// the test.
    @TaskLocal static var runningToEnd = false

    static func check(starting executable: String, pass: String? = current) {
        guard let test = Test.current,
              let problem = problem(starting: executable, pass: pass, test: test.name, tags: test.tags) else { return }
        Issue.record(Comment(rawValue: problem))
    }
}
