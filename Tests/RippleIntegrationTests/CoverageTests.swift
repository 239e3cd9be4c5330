import Foundation
import TestSupport
import Testing

/// `ripple test --coverage` through the real binary, toolchain and local store (docs/DESIGN.md, "Coverage").
/// The differential proof: after commits of different shapes, the merged report of a selective run (fresh
/// coverage of what it ran, recorded coverage of the rest) is byte for byte the LCOV of a full `--coverage`
/// run at the same commit. Broader shapes are covered by CoverageMergeTests over the same rule.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct CoverageTests {
  /// Three packages, four test targets: `Leaf` has two test targets in one test binary (so llvm-cov lists each
  /// one's files with the other's tests' zero hits), `Feature` reaches `Core` through a path dependency,
  /// and a file name with a space and non-ASCII letters.
  static func makeRepository() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    func package(_ name: String, _ body: String) throws {
      try repo.write(
        "Packages/\(name)/Package.swift",
        "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n  name: \"\(name)\",\n\(body)\n)\n"
      )
    }
    try package(
      "Core",
      """
        products: [.library(name: "Core", targets: ["Core"])],
        targets: [.target(name: "Core"), .testTarget(name: "CoreTests", dependencies: ["Core"])]
      """)
    try repo.write(
      "Packages/Core/Sources/Core/Core Zählung.swift",
      "public func count(_ n: Int) -> Int {\n  if n > 10 {\n    return 10\n  }\n  return n\n}\n")
    try repo.write("Packages/Core/Sources/Core/Unused.swift", "public func unused() -> Int {\n  42\n}\n")
    try repo.write(
      "Packages/Core/Tests/CoreTests/CoreTests.swift",
      "import Core\nimport Testing\n\n@Test func counts() {\n  #expect(count(3) == 3)\n}\n")
    try package(
      "Feature",
      """
        dependencies: [.package(path: "../Core")],
        targets: [
          .target(name: "Feature", dependencies: [.product(name: "Core", package: "Core")]),
          .testTarget(name: "FeatureTests", dependencies: ["Feature"]),
        ]
      """)
    try repo.write(
      "Packages/Feature/Sources/Feature/Feature.swift",
      "import Core\n\npublic func feature() -> Int {\n  count(20) + 1\n}\n")
    try repo.write(
      "Packages/Feature/Tests/FeatureTests/FeatureTests.swift",
      "import Feature\nimport Testing\n\n@Test func works() {\n  #expect(feature() == 11)\n}\n")
    try package(
      "Leaf",
      """
        targets: [
          .target(name: "Leaf"), .target(name: "Twig"),
          .testTarget(name: "LeafTests", dependencies: ["Leaf"]),
          .testTarget(name: "TwigTests", dependencies: ["Twig"]),
        ]
      """)
    try repo.write("Packages/Leaf/Sources/Leaf/Leaf.swift", "public func leaf(_ x: Int) -> Int {\n  x * 2\n}\n")
    try repo.write("Packages/Leaf/Sources/Leaf/Extra.swift", "public func extra() -> Int {\n  7\n}\n")
    try repo.write("Packages/Leaf/Sources/Twig/Twig.swift", "public func twig() -> String {\n  \"twig\"\n}\n")
    try repo.write(
      "Packages/Leaf/Tests/LeafTests/LeafTests.swift",
      "import Leaf\nimport Testing\n\n@Test func doubles() {\n  #expect(leaf(2) == 4)\n}\n")
    try repo.write(
      "Packages/Leaf/Tests/TwigTests/TwigTests.swift",
      "import Twig\nimport XCTest\n\nfinal class TwigCase: XCTestCase {\n  func testTwig() {\n    XCTAssertEqual(twig(), \"twig\")\n  }\n}\n"
    )
    try repo.write(".gitignore", ".build/\n")
    try repo.git("add", "-A")
    try repo.git("commit", "-q", "-m", "initial")
    return repo
  }

  private func environment(_ repo: TestRepository) -> [String: String] {
    [
      "RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_CACHE_DIR": repo.root + "/.build/ripple-cache",
      "RIPPLE_BRANCH": "feature/x",
    ]
  }

  private func json(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
  }

  /// Each target's source in the report: `fresh`, `recorded` or `notMeasured`.
  private func sources(_ report: [String: Any]) -> [String: String] {
    let targets = (report["coverage"] as? [String: Any])?["targets"] as? [[String: Any]] ?? []
    var out: [String: String] = [:]
    for target in targets { out[target["unit"] as? String ?? "?"] = target["source"] as? String }
    return out
  }

  /// Why each target not measured was not.
  private func reasons(_ report: [String: Any]) -> [String] {
    let targets = (report["coverage"] as? [String: Any])?["targets"] as? [[String: Any]] ?? []
    return targets.filter { $0["source"] as? String == "notMeasured" }.map {
      "\($0["unit"] ?? "?"): \($0["detail"] ?? "?")"
    } + (report["warnings"] as? [String] ?? [])
  }

  /// A full `--coverage` run of every target, recording nothing: the reference.
  private func fullReport(_ repo: TestRepository, _ name: String) throws -> String {
    let lcov = repo.root + "/.build/\(name)-full.lcov"
    let full = try RippleBinary.test(
      ["--all", "--coverage", "--no-cache-results", "--jobs", "3", "--coverage-lcov", lcov], in: repo.root,
      environment: environment(repo))
    #expect(full.status == 0, "\(full.standardOutput)\(full.standardError)")
    return try String(contentsOfFile: lcov, encoding: .utf8)
  }

  @Test func aSelectiveRunsMergedCoverageEqualsAFullRunsAfterEachShapeOfCommit() throws {
    let repo = try Self.makeRepository()
    let env = environment(repo)
    // The first run tests everything and records each target's coverage with its pass record.
    let first = try RippleBinary.test(
      [
        "--all", "--coverage", "--report-json", repo.root + "/.build/first.json", "--coverage-xml",
        repo.root + "/.build/first.xml",
      ], in: repo.root, environment: env)
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    #expect(Set(sources(try json(repo.root + "/.build/first.json")).values) == ["fresh"])
    #expect(first.standardOutput.contains("Packages/Core/Sources/Core/Core Zählung.swift"))
    let xml = try String(contentsOfFile: repo.root + "/.build/first.xml", encoding: .utf8)
    #expect(xml.contains("filename=\"Packages/Core/Sources/Core/Core Zählung.swift\""))
    #expect(!xml.contains(".build/"), "generated sources under .build are never reported")
    // No profile litter in the work tree (an instrumented binary writes default.profraw where it runs).
    #expect(try repo.git("status", "--porcelain").isEmpty)

    let shapes: [(name: String, change: () throws -> Void, ran: Set<String>)] = [
      (
        "leaf edit",
        {
          try repo.write(
            "Packages/Leaf/Sources/Leaf/Leaf.swift",
            "public func leaf(_ x: Int) -> Int {\n  if x > 100 {\n    return 0\n  }\n  return x * 2\n}\n")
        },
        ["Packages/Leaf:LeafTests"]
      ),
      (
        "core rename and a test-only edit",
        {
          try repo.gitMove("Packages/Core/Sources/Core/Core Zählung.swift", "Packages/Core/Sources/Core/Zähler.swift")
          try repo.append(
            "Packages/Leaf/Tests/TwigTests/TwigTests.swift",
            "\nfinal class MoreCase: XCTestCase {\n  func testMore() {\n    XCTAssertEqual(twig().count, 4)\n  }\n}\n")
        },
        ["Packages/Core:CoreTests", "Packages/Feature:FeatureTests", "Packages/Leaf:TwigTests"]
      ),
      (
        "deleted file and a manifest edit",
        {
          try repo.remove("Packages/Leaf/Sources/Leaf/Extra.swift")
          try repo.write(
            "Packages/Feature/Tests/FeatureTests/Second.swift",
            "import Feature\nimport Testing\n\n@Test func again() {\n  #expect(feature() > 0)\n}\n")
          try repo.write(
            "Packages/Leaf/Package.swift",
            "// swift-tools-version:6.0\nimport PackageDescription\n\n// edited\nlet package = Package(\n  name: \"Leaf\",\n  targets: [\n    .target(name: \"Leaf\"), .target(name: \"Twig\", dependencies: [\"Leaf\"]),\n    .testTarget(name: \"LeafTests\", dependencies: [\"Leaf\"]),\n    .testTarget(name: \"TwigTests\", dependencies: [\"Twig\"]),\n  ]\n)\n"
          )
        },
        ["Packages/Feature:FeatureTests", "Packages/Leaf:LeafTests", "Packages/Leaf:TwigTests"]
      ),
    ]
    for (index, shape) in shapes.enumerated() {
      try shape.change()
      // A commit of the sources only (GitFixture.commitAll adds ignored files too: the builds' folders).
      try repo.git("add", "-A")
      try repo.git("commit", "-q", "-m", shape.name)
      let lcov = repo.root + "/.build/\(index)-selective.lcov"
      let report = repo.root + "/.build/\(index)-selective.json"
      let selective = try RippleBinary.test(
        ["--coverage", "--base", "HEAD~1", "--jobs", "3", "--coverage-lcov", lcov, "--report-json", report],
        in: repo.root,
        environment: env)
      #expect(selective.status == 0, "\(shape.name): \(selective.standardOutput)\(selective.standardError)")
      let document = try json(report)
      let targets = sources(document)
      #expect(Set(targets.filter { $0.value == "fresh" }.keys) == shape.ran, "\(shape.name): \(targets)")
      #expect(targets.count == 4 && !targets.values.contains("notMeasured"), "\(shape.name): \(reasons(document))")
      let merged = try String(contentsOfFile: lcov, encoding: .utf8)
      let full = try fullReport(repo, "\(index)")
      #expect(merged == full, "\(shape.name): the merged report differs from the full run's")
      #expect(!full.isEmpty)
    }

    // Nothing changed since HEAD: nothing runs, and the suite's coverage comes whole from the records; the gate
    // fails on it (exit 1) naming the file that pulls it down.
    let gated = try RippleBinary.test(
      ["--coverage", "--base", "HEAD", "--coverage-min", "95", "--report-json", repo.root + "/.build/gate.json"],
      in: repo.root, environment: env)
    #expect(gated.status == 1, "\(gated.standardOutput)\(gated.standardError)")
    #expect(gated.standardError.contains("is under --coverage-min 95.00%"), "\(gated.standardError)")
    #expect(gated.standardError.contains("Packages/Core/Sources/Core/Unused.swift"), "\(gated.standardError)")
    #expect(Set(sources(try json(repo.root + "/.build/gate.json")).values) == ["recorded"])
  }

  /// A toolchain without llvm-cov beside `swift`: a clear error before anything is built (exit 3).
  @Test func aToolchainWithoutLLVMCovIsAnEnvironmentError() throws {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift", "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"P\")\n")
    _ = try repo.commitAll("initial")
    try repo.write("toolchain/swift", "#!/bin/sh\nexit 0\n")
    try repo.makeExecutable("toolchain/swift")
    let result = try RippleBinary.test(
      ["--all", "--coverage"], in: repo.root, environment: ["RIPPLE_SWIFT": repo.root + "/toolchain/swift"])
    #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardError.contains("--coverage needs the toolchain's llvm-profdata and llvm-cov"))
    #expect(result.standardError.contains(repo.root + "/toolchain"))
  }
}
