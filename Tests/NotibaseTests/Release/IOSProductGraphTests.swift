import Foundation
import NotibaseTestSupport
import Testing

/// What an iOS app gets when it adds the package from a version tag: the `Notibase` and
/// `NotibaseExtension` products, whose targets (for iOS) reach no Linux system library, no other
/// package and no unsafe flag (SwiftPM refuses those in a dependency resolved by version). Read
/// from the manifest as SwiftPM evaluates it (`swift package dump-package`).
@Suite("The iOS products' dependency graph", .tags(.processes))
struct IOSProductGraphTests {
    static let iOSProducts = ["Notibase", "NotibaseExtension"]

    @Test func theIOSProductsReachNoSystemLibrary() async throws {
        let manifest = try await Manifest.dumped()
        for product in Self.iOSProducts {
            let reached = try manifest.targets(of: product, platform: "ios")
            let system = reached.filter { manifest.type(of: $0) == "system" }
            #expect(system.isEmpty, "\(product) reaches \(system.sorted()) on iOS")
            #expect(!reached.contains("NotibaseServer") && !reached.contains("NotibaseSenders"), "\(product) reaches \(reached.sorted())")
            let unsafe = reached.filter { manifest.hasUnsafeFlags($0) }
            #expect(unsafe.isEmpty, "\(product)'s targets \(unsafe.sorted()) have unsafe flags")
        }
        #expect(try manifest.targets(of: "Notibase", platform: "ios") == ["Notibase", "NotibaseCore", "NotibaseExtension"])
    }

    /// The walk honours platform conditions: the Linux stand-in is reached on Linux only.
    @Test func theLinuxStandInIsReachedOnLinuxOnly() async throws {
        let manifest = try await Manifest.dumped()
        #expect(try manifest.targets(of: "NotibaseExtension", platform: "linux").contains("UserNotificationsShim"))
        #expect(try !manifest.targets(of: "NotibaseExtension", platform: "ios").contains("UserNotificationsShim"))
        #expect(try manifest.targets(of: "Notibase", platform: "linux").contains("ActivityKitShim"))
        #expect(try !manifest.targets(of: "Notibase", platform: "ios").contains("ActivityKitShim"))
    }

    @Test func theIOSProductsAreLibrariesForIOS16AndNeedNoOtherPackage() async throws {
        let manifest = try await Manifest.dumped()
        for product in Self.iOSProducts {
            #expect(manifest.productType(product) == "library", "\(product)")
        }
        #expect(manifest.packageDependencies == 0)
        #expect(manifest.iOSMinimum == "16.0")
    }
}

/// The package's manifest as `swift package dump-package` prints it.
private struct Manifest {
    let json: [String: Any]

    /// The manifest, dumped once for the suite's tests.
    static func dumped() async throws -> Manifest {
        let data = try await dump.value
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ChildProcessError(message: "swift package dump-package printed no JSON object")
        }
        return Manifest(json: json)
    }

    private static let dump = Task { try await dumpedJSON() }

    /// With a scratch directory of its own, so it never waits for the lock of the build that is
    /// running the tests.
    private static func dumpedJSON() async throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let child = try ChildProcess("/usr/bin/env", [
            "swift", "package", "--package-path", TestProducts.packageRoot.path, "--scratch-path", scratch.path, "dump-package",
        ], capturesStandardError: true)
        let output = await child.allOutput()
        let status = await child.exit()
        guard status == 0 else {
            throw ChildProcessError(message: "swift package dump-package failed (\(status)): \(child.standardErrorText)")
        }
        return Data(output.utf8)
    }

    private var targetList: [[String: Any]] { json["targets"] as? [[String: Any]] ?? [] }
    private var productList: [[String: Any]] { json["products"] as? [[String: Any]] ?? [] }

    private func target(_ name: String) -> [String: Any]? {
        targetList.first { $0["name"] as? String == name }
    }

    func type(of target: String) -> String? {
        self.target(target)?["type"] as? String
    }

    func productType(_ product: String) -> String? {
        let type = productList.first { $0["name"] as? String == product }?["type"] as? [String: Any]
        return type?.keys.first
    }

    var packageDependencies: Int { (json["dependencies"] as? [Any])?.count ?? -1 }

    var iOSMinimum: String? {
        (json["platforms"] as? [[String: Any]])?.first { $0["platformName"] as? String == "ios" }?["version"] as? String
    }

    func hasUnsafeFlags(_ target: String) -> Bool {
        let settings = self.target(target)?["settings"] as? [[String: Any]] ?? []
        return settings.contains { ($0["kind"] as? [String: Any])?["unsafeFlags"] != nil }
    }

    /// Every target `product` builds for `platform`: its targets and, transitively, their
    /// dependencies whose condition (if any) names the platform. A dependency on another package's
    /// product is reported as `package:product`.
    func targets(of product: String, platform: String) throws -> Set<String> {
        let roots = try #require(productList.first { $0["name"] as? String == product }?["targets"] as? [String], "no product \(product)")
        var reached = Set<String>()
        var pending = roots
        while let name = pending.popLast() {
            guard reached.insert(name).inserted, let target = target(name) else { continue }
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                guard let (kind, parts) = dependency.first, let parts = parts as? [Any] else { continue }
                let condition = parts.last as? [String: Any]
                let platforms = condition?["platformNames"] as? [String] ?? []
                guard platforms.isEmpty || platforms.contains(platform) else { continue }
                switch kind {
                case "product":
                    reached.insert("\(parts.count > 1 ? parts[1] as? String ?? "?" : "?"):\(parts[0])")
                default:
                    if let next = parts.first as? String { pending.append(next) }
                }
            }
        }
        return reached
    }
}
