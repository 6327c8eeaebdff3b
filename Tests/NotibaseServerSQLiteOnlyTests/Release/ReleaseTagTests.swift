import Foundation
import NotibaseCore
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// `script/release` tags the release commit `v<version>`, annotated, through `script/release-tag`,
/// and refuses what would make the tag name something else than what was built: a working tree
/// with changes, the tag on another commit, no home URL, an iOS guide adding the package from
/// another URL. Run in a repository of their own holding the scripts and the files they read.
@Suite("The release tag")
struct ReleaseTagTests {
    static let home = "https://git.example.org/team/notibase.git"
    static var tag: String { "v" + NotibaseVersion.current }

    @Test func theReleaseCommitGetsAnAnnotatedTagAndThePushToRun() async throws {
        let repository = try await ReleaseRepository()
        let tagged = try await repository.script("release-tag")
        #expect(tagged.status == 0, "\(tagged.output)")
        #expect(tagged.output.contains("git push origin \(Self.tag)"), "\(tagged.output)")
        #expect(try await repository.git("cat-file", "-t", Self.tag) == "tag")
        #expect(try await repository.git("rev-parse", Self.tag + "^{commit}") == repository.head())
        #expect(try await repository.git("tag", "-l", "--format=%(contents:subject)", Self.tag) == "Notibase \(NotibaseVersion.current)")

        // Again at the same commit: the tag stays as it was (a release rebuilt from its tag).
        let object = try await repository.git("rev-parse", Self.tag)
        let again = try await repository.script("release-tag")
        #expect(again.status == 0 && again.output.contains("git push origin \(Self.tag)"), "\(again.output)")
        #expect(try await repository.git("rev-parse", Self.tag) == object)
    }

    @Test(arguments: ["a changed file", "an untracked file"])
    func aTreeWithChangesIsRefusedBeforeTheBuild(change: String) async throws {
        let repository = try await ReleaseRepository()
        if change == "an untracked file" {
            try repository.write("notes.txt", "not committed\n")
        } else {
            try repository.write("CHANGELOG.md", repository.read("CHANGELOG.md") + "\nAn edit.\n")
        }
        let refused = try await repository.script("release-tag")
        #expect(refused.status != 0 && refused.output.contains("the working tree has changes"), "\(refused.output)")
        // script/release refuses it before building anything (no dist/, no bootstrap).
        let release = try await repository.script("release")
        #expect(release.status != 0 && release.output.contains("the working tree has changes"), "\(release.output)")
        #expect(!FileManager.default.fileExists(atPath: repository.directory.path + "/dist"))
        #expect(try await repository.git("tag", "-l") == "")
    }

    @Test func theTagOnAnotherCommitIsRefusedAndKept() async throws {
        let repository = try await ReleaseRepository()
        #expect(try await repository.script("release-tag").status == 0)
        let first = try await repository.head()
        try repository.write("README.md", "Changed after the release.\n")
        try await repository.commit("After the release")
        let refused = try await repository.script("release-tag")
        #expect(refused.status != 0 && refused.output.contains("\(Self.tag) already tags \(first)"), "\(refused.output)")
        #expect(try await repository.git("rev-parse", Self.tag + "^{commit}") == first)
    }

    @Test func aLightweightTagIsRefused() async throws {
        let repository = try await ReleaseRepository()
        _ = try await repository.git("tag", Self.tag)
        let refused = try await repository.script("release-tag")
        #expect(refused.status != 0 && refused.output.contains("lightweight"), "\(refused.output)")
    }

    @Test func noHomeURLIsRefused() async throws {
        let repository = try await ReleaseRepository()
        try repository.write("packaging/home-url", "# Notibase has no public home yet.\n")
        try await repository.commit("No home")
        let refused = try await repository.script("release-tag", "--check")
        #expect(refused.status != 0 && refused.output.contains("packaging/home-url"), "\(refused.output)")
        #expect(try await repository.git("tag", "-l") == "")
    }

    @Test func aGuideAddingThePackageFromAnotherURLIsRefused() async throws {
        let repository = try await ReleaseRepository()
        try repository.write("packaging/home-url", "https://git.example.org/someone-else/notibase.git\n")
        try await repository.commit("Another home")
        let refused = try await repository.script("release-tag")
        #expect(refused.status != 0 && refused.output.contains("docs/ios-guide.md"), "\(refused.output)")
        #expect(try await repository.git("tag", "-l") == "")
    }
}

/// A git repository in a temporary directory with the release scripts, the version, a home URL,
/// an iOS guide adding the package from it and a changelog entry for the version: releasable.
private struct ReleaseRepository {
    let temporary = TemporaryDirectory()
    var directory: URL { temporary.url }
    static let identity = [
        "GIT_AUTHOR_NAME": "Release Tests", "GIT_AUTHOR_EMAIL": "release@example.org",
        "GIT_COMMITTER_NAME": "Release Tests", "GIT_COMMITTER_EMAIL": "release@example.org",
        "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
    ]

    init() async throws {
        let root = TestProducts.packageRoot
        for script in ["release", "release-tag", "version", "home-url"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("script"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent("script/" + script), to: directory.appendingPathComponent("script/" + script))
        }
        try write("Sources/NotibaseCore/Version.swift", String(contentsOf: root.appendingPathComponent("Sources/NotibaseCore/Version.swift"), encoding: .utf8))
        try write("packaging/home-url", "# The project's home.\n\(ReleaseTagTests.home)\n")
        try write("docs/ios-guide.md", """
            ```swift
                    .package(url: "\(ReleaseTagTests.home)", from: "\(NotibaseVersion.current)"),
            ```

            """)
        try write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n## [\(NotibaseVersion.current)] - 2026-12-06\n")
        try write("README.md", "Notibase\n")
        _ = try await git("init", "-q", "-b", "main")
        try await commit("Release \(NotibaseVersion.current)")
    }

    func write(_ path: String, _ text: String) throws {
        let file = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
    }

    func commit(_ message: String) async throws {
        _ = try await git("add", "-A")
        _ = try await git("commit", "-q", "-m", message)
    }

    func head() async throws -> String {
        try await git("rev-parse", "HEAD")
    }

    /// A git command that must succeed; its output without the final newline.
    @discardableResult
    func git(_ arguments: String...) async throws -> String {
        let result = try await runToEnd("/usr/bin/env", ["git", "-C", directory.path] + arguments, environment: Self.identity)
        guard result.status == 0 else {
            throw ChildProcessError(message: "git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)")
        }
        return result.output.trimmingCharacters(in: .newlines)
    }

    /// One of the repository's scripts, from its root.
    func script(_ name: String, _ arguments: String...) async throws -> (status: Int32, output: String) {
        try await runToEnd(directory.path + "/script/" + name, arguments, environment: Self.identity)
    }
}
