import Foundation
import NotibaseCore
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The built `notibase` laid out as a release installs it, started from another working directory:
/// its resources (the OpenAPI document, the console) come from `../share/notibase` beside its
/// `bin/` (the Debian package's `/usr/bin` and `/usr/share/notibase`) or from
/// `NOTIBASE_RESOURCES_DIR`, and without them it refuses to start, saying where it looked.
@Suite("Resources found from the binary, not the working directory", .tags(.processes))
struct ResourceLayoutTests {
    /// A copy of the build's resources whose console page carries `marker`, so an answer shows
    /// which copy was served (the build's own is always on disk too).
    static func markedResources(at destination: URL, marker: String) throws {
        let built = TestProducts.productsDirectory.appendingPathComponent("Notibase_NotibaseAPI.resources")
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: built, to: destination)
        let index = destination.appendingPathComponent("Files/index.html")
        try (String(contentsOf: index, encoding: .utf8) + "<!-- \(marker) -->\n").write(to: index, atomically: true, encoding: .utf8)
    }

    /// `prefix/bin/notibase`: a hard link to the built binary (a copy across file systems), with
    /// nothing beside it.
    static func installBinary(under prefix: URL) throws -> String {
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let installed = bin.appendingPathComponent("notibase").path
        let built = try ServerProcess.binary()
        do { try FileManager.default.linkItem(atPath: built, toPath: installed) } catch { try FileManager.default.copyItem(atPath: built, toPath: installed) }
        return installed
    }

    /// A working directory that holds nothing of the server's.
    static func elsewhere(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theInstalledLayoutServesItsSharedResourcesFromAnyDirectory() async throws {
        let directory = TemporaryDirectory()
        let prefix = directory.url.appendingPathComponent("usr")
        let binary = try Self.installBinary(under: prefix)
        try Self.markedResources(at: prefix.appendingPathComponent("share/notibase"), marker: "installed copy")
        let server = try await ServerProcess.start(
            dataDirectory: directory.path + "/data", arguments: ["--sender", "accept"], command: ["/usr/bin/env", "-C", try Self.elsewhere(directory), binary])
        let console = try await server.request("GET", "/console/", key: nil)
        #expect(console.status == 200 && console.text.contains("<!-- installed copy -->"))
        let document = try await server.request("GET", "/openapi.json", key: nil)
        #expect(document.status == 200 && document["info"]["version"].string == NotibaseVersion.current)
        await server.terminate()
    }

    @Test func theEnvironmentVariableNamesTheDirectory() async throws {
        let directory = TemporaryDirectory()
        let binary = try Self.installBinary(under: directory.url.appendingPathComponent("opt"))
        let resources = directory.url.appendingPathComponent("resources")
        try Self.markedResources(at: resources, marker: "named copy")
        let server = try await ServerProcess.start(
            dataDirectory: directory.path + "/data", arguments: ["--sender", "accept"], command: ["/usr/bin/env", "-C", try Self.elsewhere(directory), binary],
            environment: ["NOTIBASE_RESOURCES_DIR": resources.path])
        let console = try await server.request("GET", "/console/", key: nil)
        #expect(console.status == 200 && console.text.contains("<!-- named copy -->"))
        await server.terminate()
    }

    @Test func withoutItsResourcesTheServerDoesNotStart() async throws {
        let directory = TemporaryDirectory()
        let binary = try Self.installBinary(under: directory.url.appendingPathComponent("opt"))
        let missing = directory.path + "/no-such-directory"
        let child = try ChildProcess(
            "/usr/bin/env", ["-C", try Self.elsewhere(directory), binary, "serve", "--listen", "127.0.0.1:0", "--data-dir", directory.path + "/data"],
            environment: ["NOTIBASE_RESOURCES_DIR": missing, "NOTIBASE_ADMIN_KEY": Harness.adminKey], mergesStandardError: true)
        // Either it exits, or it listens (the flaw): then it is stopped and the test fails.
        try await waitUntil(timeout: .seconds(30)) { !child.isRunning || child.printed.contains("listening on") }
        let started = child.printed.contains("listening on")
        if started { child.signal(SIGTERM) }
        let status = await child.exit()
        #expect(!started && status != 0)
        #expect(child.printed.contains(missing) && child.printed.contains("NOTIBASE_RESOURCES_DIR"), "\(child.printed)")
    }
}
