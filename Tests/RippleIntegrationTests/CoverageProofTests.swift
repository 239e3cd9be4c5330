import Foundation
import TestSupport
import Testing

/// Issue 42's differential proof at the size it names: ten packages (eleven test targets, then twelve) and ten
/// commits of every shape, each followed by a selective `--coverage` run and a full one whose LCOV texts must be
/// identical. Real builds of ten packages ten times take about ten minutes on two cores, more than the whole
/// suite's budget: it runs under `make coverage-proof` (RIPPLE_COVERAGE_PROOF=1), and `make test` runs
/// CoverageTests, the same rule on three packages and three commits.
@Suite(
  .serialized, .exclusive(.cooperativeThread),
  .enabled(
    if: ProcessInfo.processInfo.environment["RIPPLE_COVERAGE_PROOF"] == "1",
    "ten packages over ten commits: `make coverage-proof`"))
struct CoverageProofTests {
  /// A package of `Packages/<name>`: one library of the same name, its dependencies by path, one test target.
  struct Package {
    var name: String
    var dependencies: [String] = []
    /// Extra targets of the package (without dependencies) and test targets testing them, as manifest lines.
    var extraTargets: [String] = []

    func manifest(comment: String = "") -> String {
      let dependencyList = dependencies.map { ".package(path: \"../\($0)\")" }.joined(separator: ", ")
      let products = dependencies.map { ".product(name: \"\($0)\", package: \"\($0)\")" }.joined(separator: ", ")
      let targets =
        [
          ".target(name: \"\(name)\", dependencies: [\(products)])",
          ".testTarget(name: \"\(name)Tests\", dependencies: [\"\(name)\"])",
        ] + extraTargets
      return """
        // swift-tools-version:6.0
        import PackageDescription
        \(comment)
        let package = Package(
          name: "\(name)",
          products: [.library(name: "\(name)", targets: ["\(name)"])],
          dependencies: [\(dependencyList)],
          targets: [
            \(targets.joined(separator: ",\n    "))
          ]
        )

        """
    }

    /// `name(n)`: a branch taken or not by the tests, and each dependency's function called on one side only.
    var source: String {
      let lower = name.lowercased()
      let calls = dependencies.map { "\($0.lowercased())(n - 1)" }.joined(separator: " + ")
      return (dependencies.map { "import \($0)\n" }.joined()) + """

        public func \(lower)(_ n: Int) -> Int {
          if n > 100 {
            return \(calls.isEmpty ? "100" : calls)
          }
          return n + 1
        }

        """
    }
  }

  static let packages: [Package] = [
    Package(name: "Core"),
    Package(name: "Util", dependencies: ["Core"]),
    Package(name: "Net", dependencies: ["Core"]),
    Package(name: "Model", dependencies: ["Util"]),
    Package(name: "Store", dependencies: ["Model"]),
    Package(name: "Search", dependencies: ["Store", "Net"]),
    Package(name: "Profile", dependencies: ["Store"]),
    Package(name: "Settings", dependencies: ["Net"]),
    Package(name: "Report", dependencies: ["Core"]),
    Package(
      name: "Leaf",
      extraTargets: [".target(name: \"Twig\")", ".testTarget(name: \"TwigTests\", dependencies: [\"Twig\"])"]),
  ]

  /// Swift Testing for most packages, XCTest for some (llvm-cov sees both through the same test binary).
  static func test(_ package: Package, argument: Int) -> String {
    let lower = package.name.lowercased()
    if ["Net", "Report"].contains(package.name) {
      return """
        import XCTest
        import \(package.name)

        final class \(package.name)Case: XCTestCase {
          func testSmall() {
            XCTAssertEqual(\(lower)(\(argument)), \(argument + 1))
          }
        }

        """
    }
    return
      "import \(package.name)\nimport Testing\n\n@Test func small() {\n  #expect(\(lower)(\(argument)) == \(argument + 1))\n}\n"
  }

  static func makeRepository() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    for package in packages {
      let root = "Packages/\(package.name)"
      try repo.write(root + "/Package.swift", package.manifest())
      try repo.write(root + "/Sources/\(package.name)/\(package.name).swift", package.source)
      try repo.write(root + "/Tests/\(package.name)Tests/\(package.name)Tests.swift", test(package, argument: 3))
    }
    // A second file in Util (deleted later), one whose name has a space and non-ASCII letters in Model (renamed
    // later), and Leaf's second library with its test target.
    try repo.write("Packages/Util/Sources/Util/Extra.swift", "public func extra() -> Int {\n  7\n}\n")
    try repo.write(
      "Packages/Model/Sources/Model/Modèle de base.swift",
      "public func base(_ flag: Bool) -> Int {\n  if flag {\n    return 1\n  }\n  return 0\n}\n")
    try repo.write("Packages/Leaf/Sources/Twig/Twig.swift", "public func twig() -> String {\n  \"twig\"\n}\n")
    try repo.write(
      "Packages/Leaf/Tests/TwigTests/TwigTests.swift",
      "import Testing\nimport Twig\n\n@Test func twigs() {\n  #expect(twig() == \"twig\")\n}\n")
    try repo.write("README.md", "# Ten packages\n")
    try repo.write("ripple.yml", "selection:\n  ignore:\n    - \"**/*.md\"\n")
    try repo.write(".gitignore", ".build/\n")
    try repo.git("add", "-A")
    try repo.git("commit", "-q", "-m", "initial")
    return repo
  }

  static func tests(_ names: String...) -> Set<String> {
    Set(names.map { name in name == "Twig" ? "Packages/Leaf:TwigTests" : "Packages/\(name):\(name)Tests" })
  }

  @Test func aSelectiveRunsMergedCoverageEqualsAFullRunsAfterTenCommitsOverTenPackages() throws {
    let repo = try Self.makeRepository()
    let first = try RippleBinary.test(
      ["--all", "--coverage", "--jobs", "3", "--report-json", repo.root + "/.build/first.json"], in: repo.root,
      environment: CoverageReports.environment(repo))
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    let measured = CoverageReports.sources(try CoverageReports.json(repo.root + "/.build/first.json"))
    #expect(measured.count == 11 && Set(measured.values) == ["fresh"], "\(measured)")

    let everyCoreUser = Self.tests("Core", "Util", "Net", "Model", "Store", "Search", "Profile", "Settings", "Report")
    var leaf = Self.packages[9]
    let shapes: [(name: String, change: () throws -> Void, ran: Set<String>, targets: Int)] = [
      (
        "leaf edit",
        {
          try repo.write("Packages/Leaf/Sources/Leaf/Leaf.swift", "public func leaf(_ n: Int) -> Int {\n  1 + n\n}\n")
        },
        Self.tests("Leaf"), 11
      ),
      (
        "core edit",
        {
          try repo.write(
            "Packages/Core/Sources/Core/Core.swift",
            "public func core(_ n: Int) -> Int {\n  if n > 100 {\n    return 100\n  }\n  if n < 0 {\n    return 0\n  }\n  return n + 1\n}\n"
          )
        },
        everyCoreUser, 11
      ),
      (
        "manifest edit",
        {
          var settings = Self.packages[7]
          settings.dependencies.append("Report")
          try repo.write("Packages/Settings/Package.swift", settings.manifest(comment: "// now uses Report too"))
          try repo.write("Packages/Settings/Sources/Settings/Settings.swift", settings.source)
        },
        Self.tests("Settings"), 11
      ),
      (
        "test-only edit",
        {
          try repo.append(
            "Packages/Net/Tests/NetTests/NetTests.swift",
            "\nfinal class LargeCase: XCTestCase {\n  func testLarge() {\n    XCTAssertGreaterThan(net(500), 0)\n  }\n}\n"
          )
        },
        Self.tests("Net"), 11
      ),
      (
        "deleted file",
        { try repo.remove("Packages/Util/Sources/Util/Extra.swift") },
        Self.tests("Util", "Model", "Store", "Search", "Profile"), 11
      ),
      (
        "renamed file",
        {
          try repo.gitMove(
            "Packages/Model/Sources/Model/Modèle de base.swift", "Packages/Model/Sources/Model/Modèle renommé.swift")
        },
        Self.tests("Model", "Store", "Search", "Profile"), 11
      ),
      (
        "new file",
        {
          try repo.write(
            "Packages/Store/Sources/Store/Cache.swift",
            "public func cached(_ n: Int) -> Int {\n  n == 0 ? 0 : store(n)\n}\n")
          try repo.append(
            "Packages/Store/Tests/StoreTests/StoreTests.swift", "\n@Test func cache() {\n  #expect(cached(0) == 0)\n}\n"
          )
        },
        Self.tests("Store", "Search", "Profile"), 11
      ),
      (
        // Report reaches Settings since the manifest edit.
        "two leaves at once",
        {
          try repo.append("Packages/Report/Sources/Report/Report.swift", "\npublic func title() -> String { \"r\" }\n")
          try repo.write(
            "Packages/Leaf/Sources/Twig/Twig.swift", "public func twig() -> String {\n  \"tw\" + \"ig\"\n}\n")
        },
        Self.tests("Report", "Settings", "Twig"), 11
      ),
      (
        // The manifests differ in one target: the new one runs, Leaf's other test targets keep their records.
        "a new test target",
        {
          leaf.extraTargets.append(".testTarget(name: \"LeafMoreTests\", dependencies: [\"Leaf\", \"Twig\"])")
          try repo.write("Packages/Leaf/Package.swift", leaf.manifest())
          try repo.write(
            "Packages/Leaf/Tests/LeafMoreTests/LeafMoreTests.swift",
            "import Leaf\nimport Testing\nimport Twig\n\n@Test func both() {\n  #expect(leaf(2) == 3 && !twig().isEmpty)\n}\n"
          )
        },
        ["Packages/Leaf:LeafMoreTests"], 12
      ),
      ("docs only", { try repo.append("README.md", "\nNothing testable.\n") }, [], 12),
    ]
    for (index, shape) in shapes.enumerated() {
      try shape.change()
      try CoverageReports.commitAndCompare(
        repo, shape: shape.name, index: index, ran: shape.ran, targets: shape.targets)
    }
  }
}
