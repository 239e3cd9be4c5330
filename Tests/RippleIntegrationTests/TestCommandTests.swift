import Foundation
import TestSupport
import Testing

/// `ripple test` end to end: the real binary, real packages built and tested by SwiftPM.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct TestCommandTests {
  /// Two packages linked by `.package(path:)`; XCTest and Swift Testing; one deliberately failing test.
  static func makeRepository() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try populate(repo)
    return repo
  }

  /// The same repository handed on between the tests of `suite` (`GitFixture.reused`), so that each builds it
  /// incrementally instead of from scratch.
  static func reusedRepository(for suite: Any.Type) throws -> TestRepository {
    try TestRepository.reused("\(suite)-TestCommandTests", populate: populate)
  }

  private static func populate(_ repo: TestRepository) throws {
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "App",
        dependencies: [.package(path: "Packages/Shared")],
        targets: [
          .target(name: "App", dependencies: [.product(name: "Greeting", package: "Shared")]),
          .target(name: "Other"),
          .testTarget(name: "AppTests", dependencies: ["App"]),
          .testTarget(name: "OtherTests", dependencies: ["Other"]),
        ]
      )

      """)
    try repo.write(
      "Packages/Shared/Package.swift",
      """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "Shared",
        products: [.library(name: "Greeting", targets: ["Greeting"])],
        targets: [.target(name: "Greeting"), .testTarget(name: "GreetingTests", dependencies: ["Greeting"])]
      )

      """)
    try repo.write(
      "Packages/Shared/Sources/Greeting/Greeting.swift", "public func greet(_ n: String) -> String { \"hi \\(n)\" }\n")
    try repo.write(
      "Packages/Shared/Tests/GreetingTests/GreetingTests.swift",
      """
      import Greeting
      import Testing

      @Test func greets() { #expect(greet("a") == "hi a") }

      """)
    try repo.write("Sources/App/App.swift", "import Greeting\npublic func welcome() -> String { greet(\"app\") }\n")
    try repo.write("Sources/Other/Other.swift", "public let other = 1\n")
    try repo.write(
      "Tests/AppTests/AppTests.swift",
      """
      import App
      import XCTest

      final class AppTests: XCTestCase {
        func testWelcome() { XCTAssertEqual(welcome(), "hi app") }
        func testDeliberatelyFails() { XCTAssertEqual(1 + 1, 3, "deliberate failure") }
      }

      """)
    try repo.write(
      "Tests/OtherTests/OtherTests.swift",
      "import Other\nimport XCTest\n\nfinal class OtherTests: XCTestCase {\n  func testOther() { XCTAssertEqual(other, 1) }\n}\n"
    )
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("Initial import")
  }

  /// Piped into one log (a CI job's `2>&1`), the "Comparing" line (stdout, block-buffered) comes before the
  /// build's lines (stderr), as on a terminal (issue 52).
  @Test func pipedIntoOneLogTheComparingLineComesBeforeTheBuild() throws {
    let repo = try Self.makeRepository()
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RippleBinary.path)
    process.arguments = ["test"] + RippleBinary.testArguments([])
    process.currentDirectoryURL = URL(fileURLWithPath: repo.root)
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["RIPPLE_CACHE_DIR": RippleBinary.cacheDirectory, "NO_COLOR": "1", "RIPPLE_NO_CACHE_RESULTS": "1"]) { $1 }
    let log = Pipe()
    process.standardOutput = log
    process.standardError = log
    try process.run()
    let data = log.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(text)")
    let comparing = try #require(text.range(of: "Comparing the working tree with "), "\(text)")
    let building = try #require(text.range(of: "Building "), "\(text)")
    #expect(comparing.lowerBound < building.lowerBound, "\(text)")
  }

  @Test func runsOnlyTheAffectedTestsAndReportsFailures() throws {
    let repo = try Self.makeRepository()
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    let junit = repo.root + "/out/junit.xml"
    let report = repo.root + "/out/report.json"
    let scratch = repo.root + "/.build/ripple-scratch"
    let result = try RippleBinary.test(
      ["--junit", junit, "--report-json", report, "--scratch-path", scratch], in: repo.root)
    #expect(result.status == 1, "a test fails deliberately: \(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("deliberate failure"))
    #expect(result.standardOutput.contains("AppTests.swift:6"), "failures carry file:line")

    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
    let packages = try #require(json["packages"] as? [[String: Any]])
    var ran: [String: (tests: Int, failed: Int)] = [:]
    for package in packages {
      for target in package["targets"] as? [[String: Any]] ?? [] {
        let tests = target["tests"] as? [[String: Any]] ?? []
        ran[target["name"] as? String ?? "?"] = (
          tests.count, tests.filter { $0["status"] as? String == "failed" }.count
        )
      }
    }
    #expect(Set(ran.keys) == ["AppTests", "GreetingTests"], "OtherTests is not affected: \(ran)")
    #expect(ran["AppTests"]?.tests == 2 && ran["AppTests"]?.failed == 1)
    #expect(ran["GreetingTests"]?.tests == 1 && ran["GreetingTests"]?.failed == 0)

    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<testsuites"))
    #expect(xml.contains("name=\"AppTests\"") && xml.contains("name=\"GreetingTests\""))
    #expect(xml.contains("<failure"))
    #expect(!xml.contains("OtherTests"))
    #expect(FileManager.default.fileExists(atPath: repo.root + "/.build/ripple/timings.json"), "durations recorded")
  }

  @Test func nothingAffectedStillWritesTheReports() throws {
    let repo = try Self.makeRepository()
    let junit = repo.root + "/junit.xml"
    let result = try RippleBinary.run(["test", "--junit", junit], in: repo.root)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("no test target is affected by 0 changed files"))
    #expect(FileManager.default.fileExists(atPath: junit))
  }

  @Test func dryRunPrintsTheExactCommandsAndRunsNothing() throws {
    let repo = try Self.makeRepository()
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let result = try RippleBinary.run(["test", "--dry-run", "--", "-c", "release"], in: repo.root)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("swift build --build-tests"))
    #expect(result.standardOutput.contains("'^(OtherTests)\\.'"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("-c release"))
    #expect(!result.standardOutput.contains("Packages/Shared"), "an unaffected package is not built")
    #expect(!FileManager.default.fileExists(atPath: repo.root + "/.build/debug"), "nothing was built")
    #expect(!FileManager.default.fileExists(atPath: repo.root + "/.build/release"), "nothing was built")
  }

  @Test func theCIMatrixAndTheShardsAgree() throws {
    let repo = try Self.makeRepository()
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let matrix = try RippleBinary.run(["affected", "--format", "matrix", "--shards", "2"], in: repo.root)
    let object = try JSONSerialization.jsonObject(with: Data(matrix.standardOutput.utf8)) as? [String: Any]
    let include = try #require(object?["include"] as? [[String: Any]])
    #expect(include.count == 2)
    var all: [String] = []
    for entry in include {
      let shard = try #require(entry["shard"] as? Int)
      let of = try #require(entry["of"] as? Int)
      let targets = try #require(entry["targets"] as? [String])
      all += targets
      let plan = try RippleBinary.run(["test", "--dry-run", "--shard", "\(shard)/\(of)"], in: repo.root)
      for target in targets { #expect(plan.standardOutput.contains(target), "shard \(shard) runs \(target)") }
    }
    #expect(Set(all) == ["AppTests", "GreetingTests", "OtherTests"])
    #expect(all.count == 3, "no target in two shards")
  }

  @Test(arguments: ["0/3", "4/3", "3/2", "x"])
  func badShardsAreUsageErrors(shard: String) throws {
    let repo = try TestRepository.checkout()
    let result = try RippleBinary.run(["test", "--shard", shard], in: repo.root)
    #expect(result.status == 2)
    #expect(result.standardError.contains(shard) || result.standardError.contains("I/N"), "\(result.standardError)")
  }

  @Test func missingSwiftIsAnEnvironmentErrorWithTheFix() throws {
    let repo = try Self.makeRepository()
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let result = try RippleBinary.run(["test"], in: repo.root, environment: ["RIPPLE_SWIFT": "/nonexistent/swift"])
    #expect(result.status == 3, "\(result.standardError)")
    #expect(result.standardError.contains("swift"))
  }
}
