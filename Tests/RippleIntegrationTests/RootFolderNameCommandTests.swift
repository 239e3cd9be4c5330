import Foundation
import TestSupport
import Testing

/// A nested `Benchmarks` package depends on the root by `.package(path: "../")` and names it
/// "server-kit", as SwiftPM does from the folder name: `ripple affected` between two commits in a clone
/// named like the package, and in a CI-style clone named otherwise.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct RootFolderNameCommandTests {
  static func makeRepository(folderName: String) throws -> TestRepository {
    let repo = try TestRepository(folderName: folderName)
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:5.9
      import PackageDescription

      let package = Package(
        name: "server-kit",
        products: [.library(name: "KitCore", targets: ["KitCore"])],
        targets: [.target(name: "KitCore"), .testTarget(name: "KitCoreTests", dependencies: ["KitCore"])]
      )
      """)
    try repo.write("Sources/KitCore/KitCore.swift", "public let kit = 1\n")
    try repo.write("Tests/KitCoreTests/KitCoreTests.swift", "import KitCore\n")
    try repo.write(
      "Benchmarks/Package.swift",
      """
      // swift-tools-version:5.9
      import PackageDescription

      let package = Package(
        name: "Benchmarks",
        dependencies: [.package(path: "../")],
        targets: [
          .target(name: "BenchSupport", dependencies: [.product(name: "KitCore", package: "server-kit")]),
          .testTarget(name: "BenchSupportTests", dependencies: ["BenchSupport"]),
        ]
      )
      """)
    try repo.write("Benchmarks/Sources/BenchSupport/Bench.swift", "import KitCore\n")
    try repo.write("Benchmarks/Tests/BenchSupportTests/BenchTests.swift", "import BenchSupport\n")
    try repo.commitAll("base")
    try repo.append("Sources/KitCore/KitCore.swift", "public let more = 2\n")
    try repo.commitAll("head")
    return repo
  }

  @Test func aCloneNamedLikeThePackageSelectsAcrossTheNestedPackage() throws {
    let repo = try Self.makeRepository(folderName: "server-kit")
    let (tests, json) = try RippleBinary.affectedTests(["--base", "HEAD~1", "--head", "HEAD"], in: repo.root)
    #expect(tests == [".:KitCoreTests", "Benchmarks:BenchSupportTests"])
    #expect(json["runAll"] as? Bool == false)
    // The working tree (head omitted) evaluates in place, under the same name.
    try repo.append("Benchmarks/Sources/BenchSupport/Bench.swift", "let x = 1\n")
    #expect(
      try RippleBinary.affectedTests(["--base", "HEAD"], in: repo.root).tests == ["Benchmarks:BenchSupportTests"])
  }

  @Test func aCloneNamedOtherwiseSaysWhyAndFallbackRunsEverything() throws {
    let repo = try Self.makeRepository(folderName: "repo-123")
    let failed = try RippleBinary.run(["affected", "--base", "HEAD~1", "--head", "HEAD"], in: repo.root)
    #expect(failed.status == 3)
    #expect(failed.standardError.contains("names the repository's root package 'server-kit'"))
    #expect(failed.standardError.contains("this checkout's folder is 'repo-123'"))
    #expect(failed.standardError.contains("clone into a folder named 'server-kit'"))

    let (tests, json) = try RippleBinary.affectedTests(
      ["--base", "HEAD~1", "--head", "HEAD", "--fallback", "all"], in: repo.root)
    #expect(json["runAll"] as? Bool == true)
    #expect(tests == [".:KitCoreTests"], "the packages that evaluate are still known")
    let plan = try RippleBinary.run(
      ["test", "--dry-run", "--base", "HEAD~1", "--head", "HEAD", "--fallback", "all"], in: repo.root)
    #expect(plan.status == 0)
    #expect(plan.standardOutput.contains("Benchmarks"), "the package that did not evaluate runs unfiltered")
  }

  /// No graph on either side (here: no toolchain) is never "0 tests": every package runs unfiltered.
  @Test func fallbackWithNoGraphAtAllPlansEveryPackage() throws {
    let repo = try Self.makeRepository(folderName: "server-kit")
    let plan = try RippleBinary.run(
      ["test", "--dry-run", "--base", "HEAD~1", "--head", "HEAD", "--fallback", "all"], in: repo.root,
      environment: ["RIPPLE_SWIFT": "/nonexistent/ripple/swift"])
    #expect(plan.status == 0)
    #expect(plan.standardOutput.contains("root package: all test targets"))
    #expect(plan.standardOutput.contains("Benchmarks: all test targets"))
    #expect(plan.standardError.contains("/nonexistent/ripple/swift"))
  }
}
