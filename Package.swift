// swift-tools-version:6.0
import PackageDescription

// Ripple: build and bootstrap automation for modular Swift code bases.
// Modules and data flow: docs/ARCHITECTURE.md; rules and config: docs/DESIGN.md. The `ripple` executable stays lean (no server framework).
let package = Package(
  name: "Ripple",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "ripple", targets: ["ripple"]),
    .executable(name: "rippled", targets: ["rippled"]),
    .executable(name: "ripple-mcp", targets: ["ripple-mcp"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    // Already dependencies of async-http-client; named so AssetFetch can import NIO and NIOSSL directly.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    // rippled only (the `ripple` CLI links none of these):
    // SQLite through GRDB (system libsqlite3, WAL, migrations, typed rows);
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    // the HTTP API and dashboard through Hummingbird (on the swift-nio already in the build);
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    // Prometheus text exposition for /metrics.
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // Already Hummingbird's dependencies: SIGTERM-driven graceful shutdown of the server and the scheduler.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    // Already Hummingbird's dependency: the HTTP parts rippled's connection gate sees (NIOHTTPTypes).
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    // `ripple-mcp` only: the Model Context Protocol over stdio (the official SDK; on Linux it links swift-log,
    // swift-system and Foundation's networking; its NIO use is in its own conformance executables, not in `MCP`).
    .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    // Swift's own parser: which declarations of a changed file differ beyond function bodies (SourceChanges).
    .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
  ],
  targets: [
    // libgit2 as a system library, found through pkg-config.
    .systemLibrary(
      name: "Clibgit2",
      pkgConfig: "libgit2",
      providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
    ),
    // Pure values shared by every module: changed files, globs, error categories.
    .target(name: "RippleCore"),
    // The version (from VERSION), and a release build's commit and Swift version: scripts/stamp-version.sh.
    .target(name: "BuildInfo"),
    // Side effects behind small clients (processes; later file system and clock), live + test doubles.
    .target(
      name: "SystemClients",
      dependencies: [
        "RippleCore",
        .product(name: "Subprocess", package: "swift-subprocess"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    // Swift API over libgit2: one owner per handle, typed errors.
    .target(name: "Git", dependencies: ["Clibgit2", "RippleCore"]),
    // Pure: the package graph (packages, targets, products, dependencies, pins) the analysis reads.
    .target(name: "PackageModel", dependencies: ["RippleCore"]),
    // Manifest loading: package discovery, `swift package dump-package`, its on-disk cache, Package.resolved.
    .target(
      name: "PackageLoading",
      dependencies: [
        "RippleCore", "PackageModel", "SystemClients", .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
    // Pure: Xcode projects (pbxproj objects resolved into targets and files), schemes, test plans, and their
    // nodes in the package graph.
    .target(name: "XcodeModel", dependencies: ["RippleCore", "PackageModel"]),
    // `make bench` only: the project-file reader alone vs Foundation's (not shipped, not linked by ripple).
    .executableTarget(name: "XcodeReaderBench", dependencies: ["XcodeModel"]),
    // Xcode projects found and read: project.pbxproj (XcodeModel's OpenStepPlist), shared schemes
    // (Foundation's XMLParser), test plans (JSON).
    .target(name: "XcodeLoading", dependencies: ["RippleCore", "PackageModel", "PackageLoading", "XcodeModel"]),
    // Pure: the ripple.yml and rippled.yml models, their errors, the paths bootstrap may never write.
    .target(name: "RippleConfig", dependencies: ["RippleCore"]),
    // ripple.yml and rippled.yml read and validated (Yams, with file:line:column in every error).
    .target(name: "ConfigLoading", dependencies: ["RippleCore", "RippleConfig", "Yams"]),
    // Pure: changed paths x graphs x config -> affected targets with reasons.
    .target(
      name: "Affected",
      dependencies: [
        "RippleCore", "PackageModel", "RippleConfig", "PassRecords", .product(name: "Crypto", package: "swift-crypto"),
      ]),
    // Plan -> `swift build --build-tests` / `swift test --skip-build --filter`; results, JUnit, timings, shards.
    .target(name: "TestRunner", dependencies: ["RippleCore", "RippleConfig", "SystemClients", "Coverage"]),
    // Pure: line coverage per file (LCOV, Cobertura), the merge of per-target coverage, its compressed blob.
    .target(
      name: "Coverage",
      dependencies: [
        "RippleCore", "PassRecords", "Clibarchive", .product(name: "Crypto", package: "swift-crypto"),
      ]),
    // Pure: old and new text of one Swift file -> bodies-only change (which functions) or a declaration change.
    .target(
      name: "SourceChanges",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "SwiftParser", package: "swift-syntax"),
      ]),
    // Pure: per-test coverage maps and the selection of tests below the target.
    .target(name: "TestImpact", dependencies: ["RippleCore", "SourceChanges"]),
    // The mapping run: list tests, run each alone with its own profile, read llvm-cov's export into a map.
    .target(name: "CoverageMapping", dependencies: ["RippleCore", "SourceChanges", "SystemClients", "TestImpact"]),
    // Pass records (pure: keys, records, signatures, trust) and the store interface; the engines live apart.
    .target(name: "PassRecords", dependencies: ["RippleCore", .product(name: "Crypto", package: "swift-crypto")]),
    .target(name: "ResultStore", dependencies: ["PassRecords", "RippleCore"]),
    // The live stores: a local folder (LRU-bounded), rippled's record API, S3 (AssetFetch's SigV4), Bazel's HTTP
    // remote cache protocol (bazel-remote, nginx with WebDAV).
    .target(
      name: "ResultStoreLive",
      dependencies: [
        "ResultStore", "PassRecords", "RippleConfig", "RippleCore", "AssetFetch",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]),
    // libarchive as a system library: zip, tar and tar.gz reading for asset archives.
    .systemLibrary(
      name: "Clibarchive",
      pkgConfig: "libarchive",
      providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
    ),
    // Asset downloads: HTTPS (mirrors, retries, resume, redirect policy), S3 with SigV4, files.
    .target(
      name: "AssetFetch",
      dependencies: [
        "RippleCore", "RippleConfig", .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]
    ),
    // Bootstrap: content-addressed cache, safe extraction, transforms, atomic install, secrets.
    .target(
      name: "Assets",
      dependencies: [
        "RippleCore", "RippleConfig", "SystemClients", "AssetFetch", "Clibarchive",
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
    // Orchestration: the Workspace (one opened checkout) and its operations: affected, graph, the test
    // pipeline, bootstrap, doctor. Both executables call it; neither repeats it.
    .target(
      name: "RippleKit",
      dependencies: [
        "RippleCore", "SystemClients", "Git", "PackageModel", "PackageLoading", "RippleConfig", "ConfigLoading",
        "Affected", "TestRunner", "Assets", "AssetFetch", "XcodeModel", "XcodeLoading", "BuildInfo", "PassRecords",
        "ResultStore", "Coverage", "SourceChanges", "TestImpact", "CoverageMapping",
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    // Both executables' exit: errors mapped to exit codes once, through ArgumentParser's ExitCode.
    .target(
      name: "CommandLineSupport",
      dependencies: ["RippleCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    // ArgumentParser commands: parse, open a Workspace, call its operation, print. No git here.
    .target(
      name: "RippleCLI",
      dependencies: [
        "CommandLineSupport", "RippleKit", "Affected", "Git", "PackageModel", "PackageLoading", "RippleCore",
        "ConfigLoading", "RippleConfig",
        "SystemClients", "TestRunner", "BuildInfo",
        "Assets", "AssetFetch", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Crypto", package: "swift-crypto"), "ResultStoreLive",
      ]
    ),
    .executableTarget(name: "ripple", dependencies: ["RippleCLI"]),
    // `ripple mcp` hands its process to this executable: `ripple` does not link the MCP SDK (libcurl).
    .executableTarget(
      name: "ripple-mcp",
      dependencies: [
        "RippleMCP", "RippleCLI", "RippleKit", "BuildInfo", "CommandLineSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // `ripple mcp`: the MCP server over stdio; its tools map a name and JSON arguments to the Workspace's jobs.
    .target(
      name: "RippleMCP",
      dependencies: [
        "RippleKit", "Affected", "PackageModel", "TestRunner", .product(name: "MCP", package: "swift-sdk"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]),

    // rippled: file watching (inotify, polling), the runs store, the web pages, the service itself.
    .target(name: "FileWatch", dependencies: ["RippleCore"]),
    // Pure: runs, their states and transitions, analyses, the daemon's status: what the store keeps and the
    // pages show.
    .target(name: "RunModel"),
    .target(
      name: "RunStore", dependencies: ["RippleCore", "RunModel", .product(name: "GRDB", package: "GRDB.swift")]),
    // The daemon's counters, gauges and histograms, rendered in Prometheus' text format for /metrics.
    .target(
      name: "ServiceMetrics",
      dependencies: ["RunModel", .product(name: "Prometheus", package: "swift-prometheus")]),
    .target(name: "DaemonWeb", dependencies: ["RunModel"]),
    // Pure: the scheduling rules and the run's decisions that need no I/O (what it compares with, its analysis
    // as stored, how its ending is recorded). No git, store, HTTP or test runner in its closure.
    .target(name: "SchedulerCore", dependencies: ["RippleConfig", "RunModel", "PackageModel", "Affected"]),
    // The daemon's shared vocabulary: its log and health board, its paths, remote URLs, the run-control interface.
    .target(
      name: "DaemonSupport",
      dependencies: ["RippleCore", "RippleConfig", "RunModel"]),
    // rippled's HTTP surface: routes, auth, sessions, webhooks, log streaming, dashboard pages. No libgit2, no
    // test runner: it reaches the sources and the scheduler through DaemonSupport's and its own small interfaces.
    .target(
      name: "DaemonHTTP",
      dependencies: [
        "DaemonSupport", "RippleCore", "RippleConfig", "RunModel", "RunStore", "ServiceMetrics", "DaemonWeb",
        "PassRecords",
        "ResultStore",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      ]),
    // Where runs come from: remote branches (the bare mirror, its fetch), watched working trees and their sync.
    .target(
      name: "DaemonSources",
      dependencies: [
        "DaemonSupport", "Clibgit2", "Git", "RippleCore", "RippleConfig", "RunModel", "RunStore", "ServiceMetrics",
        "SystemClients", "FileWatch", .product(name: "Crypto", package: "swift-crypto"),
      ]),
    // The service wiring: rippled started and stopped, the scheduler actor, the executor's I/O, notifications.
    .target(
      name: "Daemon",
      dependencies: [
        "SchedulerCore", "DaemonSupport", "DaemonHTTP", "DaemonSources",
        "RippleCore", "SystemClients", "Git", "PackageModel", "RippleConfig", "TestRunner", "RippleKit",
        "RunModel", "RunStore", "ServiceMetrics", "BuildInfo", "PassRecords", "ResultStore", "Coverage",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]),
    // rippled's commands, one per file: parse, call Daemon, print.
    .target(
      name: "RippledCLI",
      dependencies: [
        "CommandLineSupport", "Daemon", "DaemonSupport", "DaemonSources", "RippleConfig", "ConfigLoading", "BuildInfo",
        "Git", "Assets", "RippleCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .executableTarget(name: "rippled", dependencies: ["RippledCLI"]),

    // Shared by the test targets: the temp git repository fixture and a command runner.
    // Test helpers: repositories, helper processes, the scripted process double, and the bridge through which a
    // failing double records a Swift Testing issue (its C symbol exported from the test binary for `dlsym`).
    .target(
      name: "TestSupport", dependencies: ["RippleCore", "SystemClients"], path: "Tests/TestSupport",
      linkerSettings: [
        .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=ripple_record_issue"], .when(platforms: [.linux]))
      ]
    ),
    .testTarget(name: "RippleCoreTests", dependencies: ["RippleCore"]),
    .testTarget(
      name: "PassRecordsTests",
      dependencies: ["PassRecords", "RippleCore", .product(name: "Crypto", package: "swift-crypto")]),
    .testTarget(name: "BuildInfoTests", dependencies: ["BuildInfo"]),
    .testTarget(name: "RippleMCPTests", dependencies: ["RippleMCP", .product(name: "MCP", package: "swift-sdk")]),
    .testTarget(name: "CoverageTests", dependencies: ["Coverage", "PassRecords"]),
    .testTarget(name: "SourceChangesTests", dependencies: ["SourceChanges"]),
    .testTarget(name: "TestImpactTests", dependencies: ["TestImpact", "SourceChanges", "RippleCore"]),
    // The mapping run's tests; the mutation proof finds its mutations with swift-syntax.
    .testTarget(
      name: "CoverageMappingTests",
      dependencies: [
        "CoverageMapping", "TestImpact", "SourceChanges", "RippleCore", "SystemClients", "TestSupport",
        .product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "SwiftParser", package: "swift-syntax"),
      ]),
    .testTarget(
      name: "CommandLineSupportTests",
      dependencies: [
        "CommandLineSupport", "RippleCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "SystemClientsTests", dependencies: ["SystemClients", "RippleCore", "TestSupport"]),
    .testTarget(name: "GitTests", dependencies: ["Git", "RippleCore", "TestSupport"]),
    .testTarget(
      name: "RippleKitTests",
      dependencies: [
        "RippleKit", "TestSupport", "SystemClients", "TestRunner", "PackageModel", "Git", "RippleCore", "RippleConfig",
        "Coverage", "PassRecords", "ResultStore", "Affected", "BuildInfo", "ConfigLoading", "SourceChanges",
        "TestImpact", "Assets",
      ]),
    .testTarget(
      name: "PackageLoadingTests",
      dependencies: ["PackageLoading", "PackageModel", "RippleCore", "SystemClients", "TestSupport"]),
    .testTarget(name: "RippleConfigTests", dependencies: ["RippleConfig", "ConfigLoading", "RippleCore", "Yams"]),
    // Yams: the generated CI pipelines are read back as a CI system would read them.
    .testTarget(
      name: "AffectedTests",
      dependencies: [
        "Affected", "PackageModel", "PassRecords", "RippleConfig", "RippleCore", "TestSupport", "Yams",
      ]),
    // Writes real project.pbxproj, scheme and test plan text for the Xcode tests.
    .target(name: "XcodeFixtures", path: "Tests/XcodeFixtures"),
    .testTarget(
      name: "XcodeLoadingTests",
      dependencies: [
        "XcodeLoading", "XcodeModel", "PackageModel", "PackageLoading", "Affected", "RippleCore", "XcodeFixtures",
      ]),
    .testTarget(
      name: "TestRunnerTests",
      dependencies: ["TestRunner", "RippleConfig", "RippleCore", "SystemClients", "TestSupport", "Coverage"]),
    .testTarget(
      name: "AssetFetchTests", dependencies: ["AssetFetch", "RippleConfig", "TestSupport"], exclude: ["Helpers"]),
    .testTarget(
      name: "AssetsTests",
      dependencies: [
        "Assets", "AssetFetch", "ConfigLoading", "RippleConfig", "RippleCore", "SystemClients", "TestSupport",
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    // The stores against real servers on loopback: nginx with WebDAV (Bazel's protocol), moto (S3), and a
    // Python stand-in for rippled and for the failure modes (Helpers/).
    .testTarget(
      name: "ResultStoreTests",
      dependencies: ["ResultStoreLive", "ResultStore", "PassRecords", "RippleConfig", "TestSupport"],
      exclude: ["Helpers"]),
    .testTarget(name: "FileWatchTests", dependencies: ["FileWatch", "RippleCore", "TestSupport"]),
    .testTarget(name: "RunStoreTests", dependencies: ["RunStore", "RunModel", "RippleCore"]),
    .testTarget(name: "DaemonWebTests", dependencies: ["DaemonWeb", "RunModel", "ServiceMetrics"]),
    .testTarget(name: "SchedulerCoreTests", dependencies: ["SchedulerCore", "RippleConfig", "RunModel"]),
    // The router over a real store with a recording run control: for the route tests and the daemon's tests.
    .target(
      name: "DaemonHTTPFixtures",
      dependencies: [
        "DaemonHTTP", "DaemonSupport", "RippleCore", "RunModel", "RunStore", "ServiceMetrics",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Tests/DaemonHTTPFixtures"),
    // Builds without libgit2 or the test runner: the routes in process (HummingbirdTesting).
    .testTarget(
      name: "DaemonHTTPTests",
      dependencies: [
        "DaemonHTTP", "DaemonHTTPFixtures", "DaemonSupport", "DaemonWeb", "PassRecords", "RippleConfig", "RippleCore",
        "RunModel", "RunStore", "ServiceMetrics", .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]),
    .testTarget(
      name: "DaemonSourcesTests",
      dependencies: [
        "DaemonSources", "DaemonSupport", "Git", "FileWatch", "RippleConfig", "RippleCore", "RunModel", "TestSupport",
      ]),
    .testTarget(
      name: "DaemonTests",
      dependencies: [
        "Daemon", "DaemonSupport", "DaemonHTTP", "DaemonHTTPFixtures", "DaemonSources", "RippleKit", "RippleCore",
        "RunModel", "RunStore", "RippleConfig", "SchedulerCore", "TestRunner", "ServiceMetrics", "SystemClients",
        "TestSupport", "Coverage", .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]),
    .testTarget(
      name: "DaemonIntegrationTests",
      dependencies: ["TestSupport", .product(name: "Crypto", package: "swift-crypto")]),
    .testTarget(
      name: "RippleIntegrationTests",
      dependencies: [
        "TestSupport", "RippleKit", "TestRunner", "XcodeFixtures", "SystemClients",
        // `ripple mcp` is asked through the SDK's own client.
        .product(name: "MCP", package: "swift-sdk"), .product(name: "SystemPackage", package: "swift-system"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
