import Foundation
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

/// Tests listed by the built test binary rather than a second `swift test list` (issue 50), with SwiftPM's
/// listing where the binary is not where it should be or does not answer as expected.
@Suite struct TestBinaryListingTests {
  static let dump =
    #"{"tests":[{"name":"debug.xctest","tests":[{"name":"MTests.AlphaTests","tests":[{"name":"testOne"},"#
    + #"{"name":"testTwo"}]}]}],"name":"All tests"}"#

  @Test func xctestsDumpIsReadAsSwiftTestListPrintsIt() {
    #expect(
      XCTestListParser.parse(Array(Self.dump.utf8)) == ["MTests.AlphaTests/testOne", "MTests.AlphaTests/testTwo"])
    #expect(
      XCTestListParser.parse(Array(#"{"tests":[{"name":"debug.xctest","tests":[]}],"name":"All tests"}"#.utf8)) == [])
    #expect(XCTestListParser.parse(Array("Test Suite 'All tests' started".utf8)) == nil)
  }

  @Test func aBuildElsewhereOrOtherwiseIsListedBySwiftPM() {
    let plain = TestBinaryListing.forPackage(directory: "/r/P", scratch: nil, extraArguments: [], environment: [:])
    #if os(Linux)
      #expect(plain?.productsFolder == "/r/P/.build/debug")
      #expect(
        TestBinaryListing.forPackage(
          directory: "/r/P", scratch: "/s/P", extraArguments: ["-Xswiftc", "-g"], environment: [:])?
          .productsFolder == "/s/P/debug")
      for arguments in [
        ["-c", "release"], ["--configuration=release"], ["--triple", "x"], ["--swift-sdk", "y"],
        ["--disable-swift-testing"],
      ] {
        #expect(
          TestBinaryListing.forPackage(directory: "/r/P", scratch: nil, extraArguments: arguments, environment: [:])
            == nil, "\(arguments)")
      }
    #else
      #expect(plain == nil)
    #endif
  }

  func step(_ folder: String) -> PackageStep {
    let list = ProcessRequest("swift", ["test", "list", "--skip-build"])
    return PackageStep(
      package: ".", directory: folder, testTargets: ["MTests"], runAll: false, filter: "^(MTests)\\.",
      build: ProcessRequest("swift", ["build", "--build-tests"]), test: ProcessRequest("swift", ["test"]),
      backend: .swiftPM(
        SwiftPMTests(
          list: list, binaryListing: TestBinaryListing(productsFolder: folder, environment: [:]),
          xunitPath: folder + "/x.xml")))
  }

  @Test func theBinaryListsItsTestsWithoutASecondSwiftPMInvocation() async throws {
    let folder = try TemporaryDirectory()
    let binary = folder.child("M PkgPackageTests.xctest")
    #expect(FileManager.default.createFile(atPath: binary, contents: Data(), attributes: [.posixPermissions: 0o755]))
    let process = ScriptedProcess()
      .on(.command(binary, "--dump-tests-json"), .exit(0, stdout: Self.dump))
      .on(
        .command(binary, "--testing-library", "swift-testing", "--list-tests"),
        .exit(0, stdout: "MTests.Beta/gamma()\n"))
    let runner = TestRunner(process: process.client)
    guard case .ready(_, let listed)? = try await runner.resultsSetup(for: step(folder.path)) else {
      Issue.record("not listed")
      return
    }
    #expect(listed == ["MTests.AlphaTests/testOne", "MTests.AlphaTests/testTwo", "MTests.Beta/gamma()"])
    #expect(process.requests(matching: .command("swift", "test", "list")).isEmpty)
  }

  @Test func aBinaryThatDoesNotAnswerAsExpectedLeavesTheListToSwiftPM() async throws {
    let folder = try TemporaryDirectory()
    let binary = folder.child("MPackageTests.xctest")
    #expect(FileManager.default.createFile(atPath: binary, contents: Data(), attributes: [.posixPermissions: 0o755]))
    let process = ScriptedProcess()
      .on(.command(binary, "--dump-tests-json"), .exit(0, stdout: "not json"))
      .on(.command(binary, "--testing-library"), .exit(0))
      .on(.command("swift", "test", "list"), .exit(0, stdout: "MTests.AlphaTests/testOne\n"))
    let runner = TestRunner(process: process.client)
    guard case .ready(_, let listed)? = try await runner.resultsSetup(for: step(folder.path)) else {
      Issue.record("not listed")
      return
    }
    #expect(listed == ["MTests.AlphaTests/testOne"])
    #expect(process.requests(matching: .command("swift", "test", "list")).count == 1)
    // Two binaries (a folder shared by packages): not guessed.
    #expect(FileManager.default.createFile(atPath: folder.child("OtherPackageTests.xctest"), contents: Data()))
    #expect(TestBinaryListing(productsFolder: folder.path, environment: [:]).binary() == nil)
  }
}
