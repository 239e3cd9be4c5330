import Foundation
import TestSupport

/// A repository shaped like isowords in miniature: a root package, a shared package linked by
/// `.package(path:)` from two others, a remote dependency that cannot be fetched, a test-support
/// target, and targets that only exist when TEST_SERVER is set.
enum ModularFixture {
  static let rootManifest = """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
      name: "App",
      platforms: [.macOS(.v13)],
      dependencies: [
        .package(path: "Packages/Shared"),
        .package(url: "https://example.invalid/nowhere/remote.git", from: "1.0.0"),
      ],
      targets: [
        .target(name: "AppCore", dependencies: [.product(name: "Remote", package: "remote")]),
        .target(name: "AppFeature", dependencies: ["AppCore", .product(name: "Net", package: "Shared")]),
        .target(name: "TestSupport", path: "Sources/TestSupport"),
        .testTarget(name: "AppCoreTests", dependencies: ["AppCore", "TestSupport"]),
        .testTarget(
          name: "AppFeatureTests", dependencies: ["AppFeature", "TestSupport"], exclude: ["__Snapshots__"]),
      ]
    )

    """

  static let sharedManifest = """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
      name: "Shared",
      products: [.library(name: "Net", targets: ["Net"]), .library(name: "Model", targets: ["Model"])],
      targets: [
        .target(name: "Model"),
        .target(name: "Net", dependencies: ["Model"]),
        .testTarget(name: "ModelTests", dependencies: ["Model"]),
        .testTarget(name: "NetTests", dependencies: ["Net"]),
      ]
    )

    """

  static let serverManifest = """
    // swift-tools-version:5.9
    import Foundation
    import PackageDescription

    let package = Package(
      name: "Server",
      dependencies: [.package(path: "../Shared")],
      targets: [
        .target(name: "ServerCore", dependencies: [.product(name: "Net", package: "Shared")]),
        .testTarget(name: "ServerCoreTests", dependencies: ["ServerCore"]),
      ]
    )
    if ProcessInfo.processInfo.environment["TEST_SERVER"] != nil {
      package.targets.append(.testTarget(name: "ServerIntegrationTests", dependencies: ["ServerCore"]))
    }

    """

  static let config = """
    selection:
      ignore: ["**/*.md"]
      global: ["Makefile"]
      manifestEnvironments:
        - {}
        - {TEST_SERVER: "1"}

    """

  /// Writes the fixture and commits it on `main`.
  static func make() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write("Package.swift", rootManifest)
    try repo.write("Packages/Shared/Package.swift", sharedManifest)
    try repo.write("Packages/Server/Package.swift", serverManifest)
    try repo.write("ripple.yml", config)
    try repo.write("Makefile", "all:\n\ttrue\n")
    try repo.write("README.md", "# App\n")
    try repo.write(".gitignore", ".build/\n")
    for (dir, name) in [
      ("", "AppCore"), ("", "AppFeature"), ("", "TestSupport"), ("Packages/Shared/", "Model"),
      ("Packages/Shared/", "Net"), ("Packages/Server/", "ServerCore"),
    ] {
      try repo.write("\(dir)Sources/\(name)/\(name).swift", "public enum \(name) {}\n")
    }
    for (dir, name) in [
      ("", "AppCoreTests"), ("", "AppFeatureTests"), ("Packages/Shared/", "ModelTests"),
      ("Packages/Shared/", "NetTests"), ("Packages/Server/", "ServerCoreTests"),
      ("Packages/Server/", "ServerIntegrationTests"),
    ] {
      try repo.write("\(dir)Tests/\(name)/\(name).swift", "import Testing\n@Test func t() {}\n")
    }
    try repo.write("Tests/AppFeatureTests/__Snapshots__/screen.txt", "snapshot v1\n")
    try repo.commitAll("Initial import")
    return repo
  }
}
