package import Foundation
package import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// The directory of what the server ships beside its code: the OpenAPI document (`openapi.json`)
/// and the web console (`Files/`). It is found from the binary or named by an environment variable,
/// never from the working directory, so `notibase serve` behaves the same wherever it is started:
///
/// 1. `$NOTIBASE_RESOURCES_DIR` when it is set, and then only there (a wrong setting is an error,
///    not a reason to look elsewhere);
/// 2. `Notibase_NotibaseAPI.resources` beside the binary (`swift build` and the release tarball);
/// 3. `../share/notibase` from the binary's directory (`/usr/bin/notibase` finds
///    `/usr/share/notibase`: the Debian package).
///
/// The binary is the running executable with its symbolic links resolved.
package struct ResourceDirectory: Sendable {
    package static let environmentVariable = "NOTIBASE_RESOURCES_DIR"
    /// What a resource directory holds: how one is recognised.
    package static let requiredFiles = ["openapi.json", "Files/index.html"]

    package let url: URL

    /// Where to look for an executable at `executable`, in order.
    package static func candidates(executable: URL?, environment: [String: String]) -> [URL] {
        if let configured = environment[environmentVariable], !configured.isEmpty {
            return [URL(fileURLWithPath: configured)]
        }
        guard let directory = executable?.deletingLastPathComponent() else { return [] }
        var candidates = [directory.appendingPathComponent("Notibase_NotibaseAPI.resources")]
        #if canImport(Darwin)
        candidates.append(directory.appendingPathComponent("Notibase_NotibaseAPI.bundle/Contents/Resources"))
        candidates.append(directory.appendingPathComponent("Notibase_NotibaseAPI.bundle"))
        #endif
        candidates.append(directory.deletingLastPathComponent().appendingPathComponent("share/notibase"))
        return candidates
    }

    /// The first candidate holding every required file, or an error naming where it looked.
    package static func locate(
        executable: URL?, environment: [String: String], exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> Result<ResourceDirectory, ConfigurationError> {
        let candidates = candidates(executable: executable, environment: environment)
        for candidate in candidates where requiredFiles.allSatisfy({ exists(candidate.appendingPathComponent($0).path) }) {
            return .success(ResourceDirectory(url: candidate.standardizedFileURL))
        }
        let places = candidates.map(\.path).joined(separator: ", ")
        return .failure(ConfigurationError(
            "the server's resources (\(requiredFiles.joined(separator: ", "))) are not in \(places.isEmpty ? "any known place" : places): "
                + "install them there, or set \(environmentVariable) to the directory that holds them"))
    }

    /// This process's, looked for once.
    package static let current = locate(executable: runningExecutable, environment: ProcessInfo.processInfo.environment)

    /// The running executable, symbolic links resolved.
    package static var runningExecutable: URL? {
        #if os(Linux)
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        Bundle.main.executableURL?.resolvingSymlinksInPath()
        #endif
    }
}
