import Testing
@testable import NotibaseTestSupport

/// A test of the main pass that starts a process fails unless it, or a suite around it, is
/// tagged `.processes` (decision 0035).
@Suite("Processes started in the main pass")
struct MainPassTests {
    @Test func anUntaggedTestStartingAProcessInTheMainPassFails() {
        withKnownIssue {
            MainPass.check(starting: "python3", pass: "main")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("starts python3 in the main pass") }
        }
    }

    @Test func onlyTheMainPassAsksAndTheTagAnswers() {
        #expect(MainPass.problem(starting: "python3", pass: "main", test: "t()", tags: []) != nil)
        #expect(MainPass.problem(starting: "python3", pass: "main", test: "t()", tags: [.processes]) == nil)
        #expect(MainPass.problem(starting: "python3", pass: nil, test: "t()", tags: []) == nil)
    }

    /// The check reads a test's tags: a tag on a suite must reach the tests inside it.
    @Suite(.tags(.processes)) struct Tagged {
        @Test func aSuitesTagHoldsForItsTests() throws {
            #expect(try #require(Test.current).tags.contains(.processes))
            MainPass.check(starting: "python3", pass: "main")
        }
    }
}
