// swift-tools-version:6.0
import PackageDescription

// The server is in layer targets (below, "Server, in layers"; docs/architecture.md draws them and
// decision 0047 says why). Test targets: one per module and pass of script/test. A target named `<Module>Tests` runs in
// the main pass (and, for NotibaseServerTests, again on PostgreSQL); `<Module><Pass>Tests` runs in
// that pass alone (decision 0035). Helpers the targets of a module share are in a plain target,
// `<Module>TestSupport` under Tests/, which they import with `@testable`.
let simulator: Target.Dependency = .target(name: "NotibaseSimulator", condition: .when(platforms: [.linux]))
let shim: Target.Dependency = .target(name: "UserNotificationsShim", condition: .when(platforms: [.linux]))
let serverTestDependencies: [Target.Dependency] = [
    "NotibaseServer", "NotibaseAPI", "NotibaseDelivery", "NotibaseDomain", "NotibaseStore", "NotibaseSQLite", "NotibasePostgres", "NotibaseHTTP", "NotibaseOutbound", "NotibaseWebhooks", "NotibaseServices",
    "NotibaseCore", "NotibaseSenders", "NotibaseTestSupport", "NotibaseServerTestSupport", simulator,
]
// The stand-ins of Apple's frameworks (UserNotificationsShim, ActivityKitShim): Swift 5 language
// mode with complete concurrency checking (see the UserNotificationsShim target).
let shimSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v5),
    .enableUpcomingFeature("StrictConcurrency"),
    .enableUpcomingFeature("InferSendableFromCaptures"),
    .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
    .enableUpcomingFeature("DisableOutwardActorInference"),
    .enableUpcomingFeature("IsolatedDefaultValues"),
    .enableUpcomingFeature("GlobalConcurrency"),
    .enableUpcomingFeature("RegionBasedIsolation"),
    .enableUpcomingFeature("DynamicActorIsolation"),
]
let extensionTestDependencies: [Target.Dependency] = [
    "NotibaseExtension", "NotibaseCore", "NotibaseTestSupport", "NotibaseExtensionTestSupport", shim,
]

// Layers (arrows point from user to used):
//   notibase (executable) → NotibaseCLI → NotibaseServer, NotibaseSenders, NotibaseExtension, …
//   NotibaseServer → NotibaseCore + C shims        NotibaseExtension → NotibaseCore + UserNotifications
//   NotibaseCore depends on nothing of ours.
let package = Package(
    name: "Notibase",
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .library(name: "NotibaseCore", targets: ["NotibaseCore"]),
        .library(name: "NotibaseExtension", targets: ["NotibaseExtension"]),
        .library(name: "Notibase", targets: ["Notibase"]),
        .executable(name: "notibase", targets: ["notibase"]),
    ],
    targets: [
        // MARK: Core (shared by server and device)
        .target(name: "NotibaseCore"),
        .testTarget(
            name: "NotibaseCoreTests",
            dependencies: ["NotibaseCore", "NotibaseTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "NotibaseCoreLoadTests", dependencies: ["NotibaseCore", "NotibaseTestSupport"]),

        // MARK: Senders (APNs, FCM; the protocol the server's workers hand pushes to)
        .target(name: "NotibaseSenders", dependencies: ["NotibaseCore", "CNGHTTP2", "COpenSSL"]),
        .testTarget(name: "NotibaseSendersTests", dependencies: ["NotibaseSenders", "NotibaseCore", "NotibaseTestSupport"]),
        .testTarget(
            name: "NotibaseSendersPeersTests",
            dependencies: ["NotibaseSenders", "NotibaseCore", "NotibaseTestSupport"],
            exclude: ["Peers"]
        ),

        // MARK: C libraries (Debian packages; see script/debian-packages.txt)
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNGHTTP2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // MARK: Server, in layers (docs/architecture.md draws the graph). A dependency not listed
        // here is a compile error: a store cannot name an API type, nor the HTTP server a store.
        //   NotibaseDomain    records, pure decisions (plans, schedules, retries), JSON, the log
        //   NotibaseStore     the store's roles and what both backends share above their SQL
        //   NotibaseSQLite, NotibasePostgres      the backends: SQL, rows, connections
        //   NotibaseHTTP      the HTTP server over libmicrohttpd: connections, limits, the router
        //   NotibaseOutbound  HTTP requests out (libcurl's multi interface): webhooks, web push next
        //   NotibaseWebhooks  the webhook dispatcher, its address policy and its transport
        //   NotibaseDelivery  the delivery loops: fan-out, workers, handoff, credentials, retention
        //   NotibaseServices  the services (what a request does), keys and limits
        //   NotibaseAPI       HTTP in and out of the services, and the console: no store, no loops
        //   NotibaseServer    the wiring of a node (ServerParts) and `notibase serve`
        .target(name: "NotibaseDomain", dependencies: ["NotibaseCore", "NotibaseSenders", "COpenSSL"]),
        .target(name: "NotibaseStore", dependencies: ["NotibaseDomain", "NotibaseCore", "NotibaseSenders"]),
        .target(name: "NotibaseSQLite", dependencies: ["NotibaseStore", "NotibaseDomain", "NotibaseCore", "NotibaseSenders", "CSQLite"]),
        .target(name: "NotibasePostgres", dependencies: ["NotibaseStore", "NotibaseDomain", "NotibaseCore", "NotibaseSenders", "CPostgres"]),
        .target(name: "NotibaseHTTP", dependencies: ["NotibaseDomain", "NotibaseCore", "CMicroHTTPD", "COpenSSL"]),
        .target(name: "NotibaseOutbound", dependencies: ["NotibaseDomain", "CCurl", "COpenSSL"]),
        .target(name: "NotibaseWebhooks", dependencies: ["NotibaseStore", "NotibaseOutbound", "NotibaseDomain", "NotibaseCore", "COpenSSL"]),
        .target(name: "NotibaseDelivery", dependencies: ["NotibaseStore", "NotibaseDomain", "NotibaseCore", "NotibaseSenders", "NotibaseWebhooks", "COpenSSL"]),
        .target(
            name: "NotibaseServices",
            dependencies: ["NotibaseDelivery", "NotibaseStore", "NotibaseDomain", "NotibaseWebhooks", "NotibaseCore", "NotibaseSenders", "COpenSSL"]
        ),
        .target(
            name: "NotibaseAPI",
            dependencies: ["NotibaseServices", "NotibaseHTTP", "NotibaseWebhooks", "NotibaseDomain", "NotibaseCore", "NotibaseSenders"],
            resources: [.copy("openapi.json"), .copy("Console/Files")]
        ),
        .target(
            name: "NotibaseServer",
            dependencies: [
                "NotibaseAPI", "NotibaseDomain", "NotibaseStore", "NotibaseSQLite", "NotibasePostgres", "NotibaseHTTP", "NotibaseOutbound", "NotibaseWebhooks",
                "NotibaseDelivery", "NotibaseServices", "NotibaseCore", "NotibaseSenders", "CMicroHTTPD", "COpenSSL",
            ]
        ),
        .target(
            name: "NotibaseServerTestSupport",
            dependencies: ["NotibaseServer", "NotibaseAPI", "NotibaseDelivery", "NotibaseDomain", "NotibaseStore", "NotibaseSQLite", "NotibasePostgres", "NotibaseHTTP", "NotibaseOutbound", "NotibaseWebhooks", "NotibaseServices", "NotibaseCore", "NotibaseSenders", "NotibaseTestSupport", simulator],
            path: "Tests/NotibaseServerTestSupport",
            exclude: ["Webhooks/Peers"]
        ),
        // Runs twice: in the main pass and on PostgreSQL.
        .testTarget(name: "NotibaseServerTests", dependencies: serverTestDependencies, exclude: ["Console/python_client.py"]),
        // Main pass only: says nothing about the PostgreSQL backend (runs on SQLite or without a store).
        .testTarget(name: "NotibaseServerSQLiteOnlyTests", dependencies: serverTestDependencies),
        .testTarget(name: "NotibaseServerTimedTests", dependencies: serverTestDependencies),
        .testTarget(
            name: "NotibaseServerLoadTests",
            dependencies: serverTestDependencies,
            exclude: ["Live/schemathesis.toml", "Console/console_browser.py"]
        ),
        .testTarget(name: "NotibaseServerFloodsTests", dependencies: serverTestDependencies),
        .testTarget(name: "NotibaseServerNoisyTests", dependencies: serverTestDependencies),
        .testTarget(name: "NotibaseServerPostgresNodesTests", dependencies: serverTestDependencies),
        .testTarget(name: "NotibaseServerPeersTests", dependencies: serverTestDependencies),

        // MARK: iOS SDK: the app side (registration, responses, app categories)
        .target(
            name: "Notibase",
            dependencies: [
                "NotibaseCore", "NotibaseExtension",
                .target(name: "UserNotificationsShim", condition: .when(platforms: [.linux])),
                .target(name: "ActivityKitShim", condition: .when(platforms: [.linux])),
            ]
        ),

        .testTarget(
            name: "NotibaseTests",
            dependencies: [
                "Notibase", "NotibaseCore", "NotibaseExtension", "NotibaseTestSupport", "NotibaseServer", "NotibaseAPI", "NotibaseDelivery", "NotibaseDomain", "NotibaseStore", "NotibaseSQLite", "NotibasePostgres", "NotibaseHTTP", "NotibaseOutbound", "NotibaseWebhooks", "NotibaseServices", "NotibaseSenders",
                simulator, shim, .target(name: "ActivityKitShim", condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "NotibaseLoadTests", dependencies: ["NotibaseTestSupport"]),

        // MARK: Simulated iPhones (Linux): the real extension on the UserNotifications stand-in, for
        // `notibase preview`, `notibase demo` and the server's simulated sender.
        .target(
            name: "NotibaseSimulator",
            dependencies: ["NotibaseCore", "NotibaseExtension", "NotibaseSenders", "UserNotificationsShim"]
        ),

        // MARK: Test support (helpers shared by the test targets; not shipped)
        .target(name: "NotibaseTestSupport", dependencies: ["NotibaseSenders"]),
        .testTarget(name: "NotibaseTestSupportTests", dependencies: ["NotibaseTestSupport"]),
        .executableTarget(name: "NaiveIdentifierProbe", path: "Tests/NaiveIdentifierProbe"),
        // Runs the extension on a simulated iPhone that kills the process at the content handler.
        .executableTarget(
            name: "ExtensionKillProbe",
            dependencies: ["NotibaseExtension", .target(name: "UserNotificationsShim", condition: .when(platforms: [.linux]))],
            path: "Tests/ExtensionKillProbe"
        ),

        // MARK: Command line (composition root)
        .target(
            name: "NotibaseCLI",
            dependencies: [
                "NotibaseCore", "NotibaseSenders", "NotibaseServer", "NotibaseAPI", "NotibaseDelivery", "NotibaseDomain", "NotibaseStore", "NotibaseSQLite", "NotibasePostgres", "NotibaseHTTP", "NotibaseOutbound", "NotibaseWebhooks", "NotibaseServices",
                .target(name: "NotibaseSimulator", condition: .when(platforms: [.linux])),
                .target(name: "Notibase", condition: .when(platforms: [.linux])),
                .target(name: "NotibaseExtension", condition: .when(platforms: [.linux])),
                .target(name: "UserNotificationsShim", condition: .when(platforms: [.linux])),
            ]
        ),
        .executableTarget(name: "notibase", dependencies: ["NotibaseCLI"]),
        .target(name: "NotibaseCLITestSupport", dependencies: ["NotibaseCLI"], path: "Tests/NotibaseCLITestSupport"),
        .testTarget(name: "NotibaseCLITests", dependencies: ["NotibaseCLI", "NotibaseCore", "NotibaseTestSupport", "NotibaseCLITestSupport"]),
        .testTarget(name: "NotibaseCLITimedTests", dependencies: ["NotibaseCLI", "NotibaseCore", "NotibaseTestSupport", "NotibaseCLITestSupport"]),

        // MARK: UserNotifications stand-in (Linux)
        // Apple's UserNotifications declarations plus a simulated device, so the extension's source
        // compiles and is tested on Linux. Dependents link it only there:
        // `.target(name: "UserNotificationsShim", condition: .when(platforms: [.linux]))`.
        // Swift 5 language mode with complete concurrency checking (the same diagnostics as Swift 6,
        // fatal under -warnings-as-errors) on purpose: client modules then treat it like Apple's
        // Objective-C framework, so `@preconcurrency import` has the same effect on Linux and on iOS.
        // In Swift 6 mode it would only turn errors into warnings. docs/usernotifications-shim.md.
        .target(name: "UserNotificationsShim", swiftSettings: shimSwiftSettings),
        .testTarget(name: "UserNotificationsShimTests", dependencies: ["UserNotificationsShim", "NotibaseTestSupport"]),

        // MARK: ActivityKit stand-in (Linux)
        // Apple's ActivityKit declarations the SDK uses plus a simulated device that delivers Live
        // Activity pushes as iOS does; Swift 5 mode with complete checking, as UserNotificationsShim
        // and for the same reason. docs/activitykit-shim.md.
        .target(name: "ActivityKitShim", swiftSettings: shimSwiftSettings),
        .testTarget(name: "ActivityKitShimTests", dependencies: ["ActivityKitShim"]),

        // MARK: iOS SDK: the Notification Service Extension
        .target(
            name: "NotibaseExtension",
            dependencies: [
                "NotibaseCore",
                .target(name: "UserNotificationsShim", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(
            name: "NotibaseExtensionTestSupport",
            dependencies: ["NotibaseExtension", "NotibaseCore", "NotibaseTestSupport", shim],
            path: "Tests/NotibaseExtensionTestSupport",
            exclude: ["Peers"]
        ),
        .testTarget(name: "NotibaseExtensionTests", dependencies: extensionTestDependencies),
        .testTarget(name: "NotibaseExtensionTimedTests", dependencies: extensionTestDependencies),
        .testTarget(name: "NotibaseExtensionLoadTests", dependencies: extensionTestDependencies),
        .testTarget(name: "NotibaseExtensionLifecycleTests", dependencies: extensionTestDependencies),
    ]
)

// Every target: Swift 6 language mode (strict concurrency), `any` spelled out, and import hygiene:
// an import is internal unless marked `public`/`package` (so no C module leaks to a module's
// users), and a member is visible only in a file that imports its module.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
