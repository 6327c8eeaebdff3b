import Foundation
import NotibaseCore
import NotibaseTestSupport
import Testing

/// What the iOS guide tells an app to do, done on Linux: a package that depends on this repository
/// `from:` the version, resolved by SwiftPM from a git repository tagged as `script/release-tag`
/// tags a release (`v<version>`, annotated), and built with the `Notibase` and `NotibaseExtension`
/// products (on Linux over the UserNotifications stand-in). One build of the SDK, which takes
/// minutes: the load pass.
@Suite("A consumer package resolves the iOS SDK from a release tag")
struct ConsumerPackageTests {
    @Test func aPackageDependingFromTheVersionResolvesTheTagAndBuilds() async throws {
        let directory = TemporaryDirectory("notibase-consumer")
        let version = NotibaseVersion.current
        let repository = directory.url.appendingPathComponent("notibase")
        try await Self.taggedRepository(at: repository, tag: "v" + version)

        let consumer = directory.url.appendingPathComponent("consumer")
        try Self.write(consumer.appendingPathComponent("Package.swift"), """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Consumer",
                platforms: [.macOS(.v14), .iOS(.v16)],
                dependencies: [
                    .package(url: "file://\(repository.path)", from: "\(version)"),
                ],
                targets: [
                    .executableTarget(name: "Consumer", dependencies: [
                        .product(name: "Notibase", package: "notibase"),
                        .product(name: "NotibaseExtension", package: "notibase"),
                    ]),
                ]
            )

            """)
        try Self.write(consumer.appendingPathComponent("Sources/Consumer/main.swift"), """
            import Notibase
            import NotibaseExtension

            print(NotibaseConfiguration.sdkVersion)
            print(String(reflecting: NotibaseNotificationService.self))

            """)

        let scratch = directory.path + "/scratch"
        let build = try await runToEnd("/usr/bin/env", [
            "swift", "build", "--package-path", consumer.path, "--scratch-path", scratch,
            "--cache-path", directory.path + "/cache", "--config-path", directory.path + "/config",
            "--security-path", directory.path + "/security",
        ])
        try #require(build.status == 0, "swift build of the consumer failed: \(build.output)")

        // SwiftPM chose the tag, as the version it asked for.
        let resolved = try JSONSerialization.jsonObject(with: Data(contentsOf: consumer.appendingPathComponent("Package.resolved"))) as? [String: Any]
        let pins = resolved?["pins"] as? [[String: Any]] ?? []
        let state = pins.first { $0["identity"] as? String == "notibase" }?["state"] as? [String: Any]
        #expect(state?["version"] as? String == version, "\(pins)")

        let ran = try await runToEnd(scratch + "/debug/Consumer", [])
        #expect(ran.status == 0)
        #expect(ran.output == "notibase-ios/\(version)\nNotibaseExtension.NotibaseNotificationService\n", "\(ran.output)")
    }

    /// A git repository of the working tree as it would be committed (tracked and untracked files,
    /// not the ignored ones), its one commit tagged `tag` as a release is.
    static func taggedRepository(at repository: URL, tag: String) async throws {
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        let copy = try await runToEnd("/bin/bash", ["-c", """
            set -euo pipefail
            cd "$1"
            git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
                [ -e "$file" ] && printf '%s\\0' "$file"
            done | tar --null -T - -cf - | tar -xf - -C "$2"
            """, "copy", TestProducts.packageRoot.path, repository.path])
        try #require(copy.status == 0, "copying the work tree failed: \(copy.output)")
        let identity = [
            "GIT_AUTHOR_NAME": "Consumer Tests", "GIT_AUTHOR_EMAIL": "consumer@example.org",
            "GIT_COMMITTER_NAME": "Consumer Tests", "GIT_COMMITTER_EMAIL": "consumer@example.org",
            "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
        ]
        for arguments in [["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "Release"], ["tag", "-a", tag, "-m", "Notibase"]] {
            let git = try await runToEnd("/usr/bin/env", ["git", "-C", repository.path] + arguments, environment: identity)
            try #require(git.status == 0, "git \(arguments.joined(separator: " ")) failed: \(git.output)")
        }
    }

    static func write(_ file: URL, _ text: String) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
}
