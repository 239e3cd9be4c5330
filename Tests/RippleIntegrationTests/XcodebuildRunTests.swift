import Foundation
import RippleKit
import SystemClients
import TestRunner
import TestSupport
import Testing
import XcodeFixtures

/// `runner: xcodebuild` in `test.runs` on the thin app (docs/DESIGN.md, "Test runs"). No real xcodebuild
/// runs here: on Linux the `ripple` binary plans the run and names its targets as not run here; the macOS
/// path is planned in process with the platform set to macOS, and xcodebuild and xcresulttool are
/// answered by a process double that records their arguments.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct XcodebuildRunTests {
  /// The same package as `XcodeProjectTests`' (Core, Feature, CoreTests).
  static let coreManifest = XcodeProjectTests.coreManifest

  static func config(scheme: String = "MyApp") -> String {
    """
    test:
      runs:
        - name: ios
          runner: xcodebuild
          project: App/MyApp.xcodeproj
          scheme: \(scheme)
          destination: "platform=iOS Simulator,name=iPhone 16"

    """
  }

  /// The thin app with an xcodebuild run, and an edit of the app (selecting MyAppTests and MyAppUITests).
  private func makeRepository(scheme: String = "MyApp") throws -> TestRepository {
    let repo = try TestRepository.checkout()
    for (path, text) in ThinAppFixture().files { try repo.write(path, text) }
    try repo.write("Packages/Core/Package.swift", Self.coreManifest)
    try repo.write("ripple.yml", Self.config(scheme: scheme))
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("Thin app over a local package")
    try repo.append("App/MyApp/ContentView.swift", "// edit\n")
    return repo
  }

  @Test func onLinuxTheRunIsPlannedAndItsTargetsAreNamed() throws {
    #if os(Linux)
      let repo = try makeRepository()
      let planJSON = try RippleBinary.run(["test", "--base", "main", "--dry-run", "--format", "json"], in: repo.root)
      #expect(planJSON.status == 0, "\(planJSON.standardError)")
      let plan = try #require(
        try JSONSerialization.jsonObject(with: Data(planJSON.standardOutput.utf8)) as? [String: Any])
      #expect((plan["runs"] as? [Any])?.isEmpty == true, "no xcodebuild and no swift build on Linux")
      let notRunHere = try #require(plan["notRunHere"] as? [[String: Any]])
      #expect(notRunHere.map { $0["name"] as? String } == ["MyAppTests", "MyAppUITests"])
      #expect(
        notRunHere.first?["reason"] as? String
          == "tested by the xcodebuild run `ios` (scheme MyApp), platforms: macos")
      #expect(
        (notRunHere.last?["reason"] as? String)?.contains("not tested by the scheme of any xcodebuild run") == true)

      let run = try RippleBinary.run(["test", "--base", "main"], in: repo.root)
      #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
      #expect(run.standardOutput.contains("not run on linux: MyAppTests (tested by the xcodebuild run `ios`"))

      let strict = try RippleBinary.run(["test", "--base", "main", "--require-all"], in: repo.root)
      #expect(strict.status == 1)
      #expect(
        strict.standardError.contains("MyAppTests (tested by the xcodebuild run `ios`"), "\(strict.standardError)")
    #endif
  }

  @Test func aSchemeNotInTheProjectIsAUsageErrorListingTheShared() throws {
    let repo = try makeRepository(scheme: "Nope")
    let run = try RippleBinary.run(["test", "--base", "main", "--dry-run"], in: repo.root)
    #expect(run.status == 2, "\(run.standardError)")
    #expect(run.standardError.contains("test run `ios` ("), "\(run.standardError)")
    #expect(run.standardError.contains("ripple.yml:3): "), "\(run.standardError)")
    #expect(run.standardError.contains("MyApp, Planned"), "\(run.standardError)")
  }

  /// xcodebuild and xcrun answered like Xcode 16 would; the real toolchain for manifests, on purpose. Anything
  /// else is unscripted: a test issue, never a real process. `failFirst`: testLaunch() fails in the first
  /// result bundle and passes in a retry's.
  static func standIn(failFirst: Bool = false) -> ScriptedProcess {
    @Sendable func results(_ result: String) -> String {
      """
      {"testNodes":[{"name":"MyApp","nodeType":"Test Plan","children":[{"name":"MyAppTests",
      "nodeType":"Unit test bundle","children":[{"name":"AppTests","nodeType":"Test Suite","children":[
      {"name":"testLaunch()","nodeType":"Test Case","result":"\(result)","duration":"0.5s"}]}]}]}]}
      """
    }
    return ScriptedProcess()
      .on(
        .command("xcodebuild"),
        .run { request in
          if let index = request.arguments.firstIndex(of: "-resultBundlePath") {
            try FileManager.default.createDirectory(
              atPath: request.arguments[index + 1], withIntermediateDirectories: true)
          }
          return ProcessResult(request: request, exitStatus: 0, standardOutput: Data(), standardError: Data())
        }
      )
      .on(
        .command("xcrun"),
        .run { request in
          let fails = failFirst && !request.arguments.contains { $0.contains("-retry") }
          return ProcessResult(
            request: request, exitStatus: 0, standardOutput: Data(results(fails ? "Failed" : "Passed").utf8),
            standardError: Data())
        }
      )
      .on(.command("swift", "package", "dump-package"), .delegate(to: .live))
      .on(.command("swift", "--version"), .delegate(to: .live))
  }

  static let xcode = ScriptedProcess.Pattern("xcodebuild or xcrun") {
    $0.executable == "xcodebuild" || $0.executable == "xcrun"
  }

  @Test func asOnMacOSTheSchemesTargetsRunThroughXcodebuild() async throws {
    let repo = try makeRepository()
    let cache = try TemporaryDirectory(prefix: "ripple-xcodebuild-cache")
    var environment = ProcessInfo.processInfo.environment
    environment["RIPPLE_CACHE_DIR"] = cache.path
    let standIn = Self.standIn()
    let workspace = try Workspace.open(
      directory: repo.root, services: RippleServices(process: standIn.client, environment: environment))
    var request = TestRequest(scope: .affected(AffectedRequest(changes: ChangeRequest(base: "main"))))
    request.platform = .macos
    let plan = try await workspace.planTests(request)
    #expect(plan.selection.packages.map(\.path) == ["App/MyApp.xcodeproj"])
    #expect(plan.selection.packages.first?.testTargets == ["MyAppTests"])
    #expect(plan.notRunHere.map(\.name) == ["MyAppUITests"], "the scheme skips the UI tests")
    #expect(plan.planJSON().contains("-only-testing:MyAppTests"))

    let result = try await workspace.runTests(plan, onEvent: { _ in })
    #expect(
      standIn.requests(matching: Self.xcode).map { $0.arguments.first } == [
        "build-for-testing", "test-without-building", "xcresulttool",
      ])
    let test = try #require(standIn.requests(matching: Self.xcode).dropFirst().first)
    #expect(test.arguments.contains("-only-testing:MyAppTests"))
    #expect(test.arguments.contains(repo.root + "/App/MyApp.xcodeproj"))
    #expect(result.packages.map(\.status) == [.passed])
    #expect(result.packages.first?.run == "ios")
    #expect(result.totals.passed == 1)
    #expect(result.notRunHere.map(\.name) == ["MyAppUITests"])
  }

  @Test func retryFailedRerunsTheFailedTestThroughXcodebuild() async throws {
    let repo = try makeRepository()
    let cache = try TemporaryDirectory(prefix: "ripple-xcodebuild-cache")
    var environment = ProcessInfo.processInfo.environment
    environment["RIPPLE_CACHE_DIR"] = cache.path
    let standIn = Self.standIn(failFirst: true)
    let workspace = try Workspace.open(
      directory: repo.root, services: RippleServices(process: standIn.client, environment: environment))
    var request = TestRequest(scope: .affected(AffectedRequest(changes: ChangeRequest(base: "main"))))
    request.platform = .macos
    request.retryFailed = 1
    let result = try await workspace.runTests(try await workspace.planTests(request), onEvent: { _ in })
    #expect(
      standIn.requests(matching: Self.xcode).map { $0.arguments.first } == [
        "build-for-testing", "test-without-building", "xcresulttool", "test-without-building", "xcresulttool",
      ])
    let retry = try #require(standIn.requests(matching: Self.xcode).dropFirst(3).first)
    #expect(
      retry.arguments.filter { $0.hasPrefix("-only-testing:") } == ["-only-testing:MyAppTests/AppTests/testLaunch()"])
    #expect(result.packages.map(\.status) == [.passed])
    #expect(result.totals.flaky == 1)
  }
}
