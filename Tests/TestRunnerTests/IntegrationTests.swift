import Foundation
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

/// Real `swift build` / `swift test` on two small packages: the root package `App` depends on `Shared`
/// through `.package(path:)`. Everything runs in one test so the build is done once (one scratch
/// path), and the temporary directory is removed at the end.
@Suite(.serialized) struct IntegrationTests {
  static func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  static func makePackages(in root: String) throws {
    try write(
      """
      // swift-tools-version:6.0
      import PackageDescription
      let package = Package(
        name: "Shared",
        products: [.library(name: "Shared", targets: ["Shared"])],
        targets: [.target(name: "Shared"), .testTarget(name: "SharedTests", dependencies: ["Shared"])]
      )
      """, to: root + "/Shared/Package.swift")
    try write("public func double(_ x: Int) -> Int { x * 2 }\n", to: root + "/Shared/Sources/Shared/Shared.swift")
    try write(
      "import XCTest\nimport Shared\nfinal class SharedTests: XCTestCase { func testDouble() { XCTAssertEqual(double(2), 4) } }\n",
      to: root + "/Shared/Tests/SharedTests/SharedTests.swift")
    try write(
      """
      // swift-tools-version:6.0
      import PackageDescription
      let package = Package(
        name: "App",
        dependencies: [.package(path: "Shared")],
        targets: [
          .target(name: "App", dependencies: [.product(name: "Shared", package: "Shared")]),
          .testTarget(name: "AppTests", dependencies: ["App"]),
          .testTarget(name: "AppSwiftTests", dependencies: ["App"]),
          .testTarget(name: "OtherTests", dependencies: ["App"]),
        ]
      )
      """, to: root + "/Package.swift")
    try write(
      "import Shared\npublic func quadruple(_ x: Int) -> Int { double(double(x)) }\n",
      to: root + "/Sources/App/App.swift")
    try write(
      """
      import XCTest
      import App
      final class QuadTests: XCTestCase {
        func testQuadruple() { XCTAssertEqual(quadruple(1), 4) }
        func testDeliberatelyFails() { XCTAssertEqual(quadruple(1), 5, "deliberate") }
      }
      """, to: root + "/Tests/AppTests/QuadTests.swift")
    try write(
      """
      import Testing
      import App
      @Suite struct QuadSuite {
        @Test func quadruples() { #expect(quadruple(2) == 8) }
        @Test(.disabled("not yet")) func later() {}
      }
      @Test func free() { #expect(quadruple(0) == 0) }
      """, to: root + "/Tests/AppSwiftTests/QuadSuite.swift")
    // Three classes: two with a timing history, one added since (it must still run, once).
    try write(
      """
      import XCTest
      final class OtherTests: XCTestCase { func testOther() {} }
      final class MoreOtherTests: XCTestCase { func testMore() {} }
      final class NewOtherTests: XCTestCase { func testNew() {} }
      """, to: root + "/Tests/OtherTests/OtherTests.swift")
  }

  /// SwiftPM leaves lock files named after the scratch path (`/` → `_`) in the temporary directory.
  static func removeSwiftPMLocks(for root: String) {
    let temporary = NSTemporaryDirectory()
    let prefix = root.replacingOccurrences(of: "/", with: "_")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
    for name in names where name.hasPrefix(prefix) {
      try? FileManager.default.removeItem(atPath: (temporary as NSString).appendingPathComponent(name))
    }
  }

  @Test(.timeLimit(.minutes(10))) func runsOnlyTheSelectedTargetsOfRealPackages() async throws {
    try await withTemporaryDirectory { root in
      defer { Self.removeSwiftPMLocks(for: root) }
      try Self.makePackages(in: root)
      let scratch = root + "/.scratch"
      let options = TestRunOptions(
        repositoryRoot: root, extraArguments: SharedModuleCache.swiftArguments, scratchPath: scratch)
      let events = EventLog()
      let runner = TestRunner(process: .live, onEvent: events.append)
      let selection = TestSelection(packages: [
        PackageSelection(path: ".", testTargets: ["AppTests", "AppSwiftTests"]),
        PackageSelection(path: "Shared", testTargets: []),
      ])

      let result = try await runner.run(selection, options: options)
      let package = try #require(result.packages.first)
      #expect(result.packages.count == 1, "Shared has no selected target and is not built")
      #expect(!FileManager.default.fileExists(atPath: scratch + "/Shared"))
      #expect(package.status == .failed, "\(package.message ?? "") \(package.buildErrors)")
      #expect(package.targets.map(\.name) == ["AppSwiftTests", "AppTests"])
      let swiftTesting = try #require(package.targets.first).totals
      #expect((swiftTesting.tests, swiftTesting.passed, swiftTesting.failed, swiftTesting.skipped) == (3, 2, 0, 1))
      let xctest = try #require(package.targets.last)
      #expect((xctest.totals.tests, xctest.totals.passed, xctest.totals.failed) == (2, 1, 1))
      let failure = try #require(xctest.tests.first { $0.status == .failed }?.failures.first)
      #expect(failure.file?.hasSuffix("Tests/AppTests/QuadTests.swift") == true)
      #expect(failure.line == 5)
      #expect(failure.message.contains("deliberate"))
      #expect(!package.targets.flatMap(\.tests).contains { $0.name == "testOther" }, "OtherTests was not selected")
      #expect(throws: TestRunnerError.testsFailed(count: 1, packages: ["."])) { try result.check() }
      let live = events.events.compactMap { event -> String? in
        guard case .testFinished(_, let target, let test) = event else { return nil }
        return "\(target) \(test.name) \(test.status)"
      }
      #expect(live.contains("AppTests testDeliberatelyFails failed"), "\(live)")
      #expect(live.contains("AppSwiftTests quadruples() passed"), "\(live)")

      let junit = root + "/reports/junit.xml"
      try TestReportWriter.write(result, junitPath: junit, jsonPath: nil)
      let xml = try XMLCollector.parse(try String(contentsOfFile: junit, encoding: .utf8))
      #expect(
        xml.elements.filter { $0.name == "testsuite" }.map { $0.attributes["name"] } == ["AppSwiftTests", "AppTests"])
      #expect(xml.elements.filter { $0.name == "failure" }.count == 1)

      // Same build (incremental), a filter that matches nothing.
      let empty = try await runner.run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["NoSuchTests"])]), options: options)
      #expect(empty.packages.first?.status == .noTestsRan)
      #expect(throws: TestRunnerError.noTestsRan(package: ".", filter: #"^(NoSuchTests)\."#)) { try empty.check() }

      // Two shards of a target split by suites (same build): each of its tests runs exactly once.
      var history = TimingHistory()
      history.record(10, for: TestUnit(package: ".", target: "OtherTests"))
      history.suites["."] = ["OtherTests": ["OtherTests": 5, "MoreOtherTests": 4]]
      let others = TestSelection(packages: [PackageSelection(path: ".", testTargets: ["OtherTests"])])
      var ran: [String] = []
      var updated = history
      for index in 1...2 {
        var sharded = options
        sharded.shard = try Shard(index: index, count: 2)
        let part = try await runner.run(others, options: sharded, history: history)
        #expect(part.succeeded, "\(part.packages.map(\.status))")
        ran += part.packages.flatMap(\.targets).flatMap(\.tests).map(\.qualifiedName)
        let scopes = TestRunner.effectiveSelection(others, options: sharded, history: history).suiteScopes
        updated.record(part, scopes: scopes)
      }
      history = updated
      #expect(ran.sorted() == ["MoreOtherTests/testMore", "NewOtherTests/testNew", "OtherTests/testOther"])
      let suites = Set(history.suiteDurations(of: TestUnit(package: ".", target: "OtherTests")).keys)
      #expect(suites == ["MoreOtherTests", "NewOtherTests", "OtherTests"])
    }
  }

  @Test func aMissingSwiftExecutableIsAnEnvironmentErrorWithTheFix() async throws {
    var options = TestRunOptions(repositoryRoot: NSTemporaryDirectory())
    options.swiftExecutable = "/nonexistent/swift"
    await #expect {
      try await TestRunner(process: .live).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["T"])]), options: options)
    } throws: { error in
      guard let error = error as? TestRunnerError else { return false }
      return error.category == .environment && error.description.contains("https://swift.org/install")
    }
  }
}
