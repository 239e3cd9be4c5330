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

  @Test func aSelectiveRunsMergedCoverageEqualsAFullRunsAfterEachShapeOfCommit() throws {
    let repo = try Self.makeRepository()
    let env = CoverageReports.environment(repo)
    // The first run tests everything and records each target's coverage with its pass record.
    let first = try RippleBinary.test(
      [
        "--all", "--coverage", "--report-json", repo.root + "/.build/first.json", "--coverage-xml",
        repo.root + "/.build/first.xml",
      ], in: repo.root, environment: env)
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    #expect(
      Set(CoverageReports.sources(try CoverageReports.json(repo.root + "/.build/first.json")).values) == ["fresh"])
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
      try CoverageReports.commitAndCompare(repo, shape: shape.name, index: index, ran: shape.ran, targets: 4)
    }

    // Nothing changed since HEAD: nothing runs, and the suite's coverage comes whole from the records; the gate
    // fails on it (exit 1) naming the file that pulls it down.
    let gated = try RippleBinary.test(
      ["--coverage", "--base", "HEAD", "--coverage-min", "95", "--report-json", repo.root + "/.build/gate.json"],
      in: repo.root, environment: env)
    #expect(gated.status == 1, "\(gated.standardOutput)\(gated.standardError)")
    #expect(gated.standardError.contains("is under --coverage-min 95.00%"), "\(gated.standardError)")
    #expect(gated.standardError.contains("Packages/Core/Sources/Core/Unused.swift"), "\(gated.standardError)")
    #expect(
      Set(CoverageReports.sources(try CoverageReports.json(repo.root + "/.build/gate.json")).values) == ["recorded"])
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
