// swift-tools-version:6.0
import PackageDescription

// Layers (arrows point from user to used):
//   notibase (executable) → NotibaseCLI → NotibaseServer, NotibaseSenders, NotibaseExtension, …
//   NotibaseServer → NotibaseCore + C shims        NotibaseExtension → NotibaseCore + UserNotifications
//   NotibaseCore depends on nothing of ours.
let package = Package(
    name: "Notibase",
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .library(name: "NotibaseCore", targets: ["NotibaseCore"]),
        .executable(name: "notibase", targets: ["notibase"]),
    ],
    targets: [
        // MARK: Core (shared by server and device)
        .target(name: "NotibaseCore"),
        .testTarget(
            name: "NotibaseCoreTests",
            dependencies: ["NotibaseCore"],
            resources: [.copy("Fixtures")]
        ),

        // MARK: Senders (APNs, FCM; the protocol the server's workers hand pushes to)
        .target(name: "NotibaseSenders", dependencies: ["NotibaseCore", "CNGHTTP2", "COpenSSL"]),
        .testTarget(
            name: "NotibaseSendersTests",
            dependencies: ["NotibaseSenders", "NotibaseCore"],
            exclude: ["Peers"]
        ),

        // MARK: C libraries (Debian packages; see script/debian-packages.txt)
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNGHTTP2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),

        // MARK: Command line (composition root)
        .target(name: "NotibaseCLI", dependencies: ["NotibaseCore", "NotibaseSenders"]),
        .executableTarget(name: "notibase", dependencies: ["NotibaseCLI"]),
    ]
)

// Every target: Swift 6 language mode (strict concurrency).
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
