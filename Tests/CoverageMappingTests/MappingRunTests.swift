import Foundation
import SystemClients
import TestSupport
import Testing

@testable import CoverageMapping
@testable import SourceChanges
@testable import TestImpact

/// The mapping run over a scripted test binary and toolchain: which commands it runs, and each way a test ends up
/// unmapped.
@Suite struct MappingRunTests {
  let folder: String
  let binary: String

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapping-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    binary = folder + "/TinyPackageTests.xctest"
    try ELFFixture.make(buildID: [0xAB, 0xCD]).write(to: URL(fileURLWithPath: binary))
  }

  func request() -> MappingRun.Request {
    MappingRun.Request(
      binary: binary, target: "CoreTests", key: "k1", repositoryRoot: "/repo", workDirectory: folder)
  }

  /// Lists one XCTest and two Swift Testing tests; each run writes its profile and reports one test, except as
  /// `behaviour` says for the named test.
  func scripted(
    behaviour: [String: (status: Int32, output: String, writesProfile: Bool)] = [:], binaryID: String = "abcd"
  ) -> ScriptedProcess {
    let binary = binary
    return ScriptedProcess()
      .on(.command(binary, "--list-tests"), .exit(0, stdout: "Listing 1 test:\n\nCoreTests.ParserTests/testParse\n"))
      .on(
        .command(binary, "--testing-library", "swift-testing", "--list-tests"),
        .exit(0, stdout: "CoreTests.A/`same name (ü)`()\nCoreTests.B/`same name (ü)`()\n")
      )
      .on(
        .command(binary),
        .run { request in
          let test = request.arguments.last!
          let key = behaviour.keys.first {
            TestID($0) == TestID(test) || TestLibrary.anchoredPattern(TestID($0)) == test
          }
          let (status, output, writes) =
            key.flatMap { behaviour[$0] }
            ?? (
              0, request.arguments.count == 1 ? "Executed 1 test, with 0 failures" : "Test run with 1 test passed", true
            )
          if writes, let path = request.environment["LLVM_PROFILE_FILE"] ?? nil {
            _ = FileManager.default.createFile(atPath: path, contents: Data("raw".utf8))
          }
          return ScriptedProcess.result(request, status: status, stdout: output)
        }
      )
      .on(.command("/tools/llvm-profdata", "show"), .exit(0, stdout: "Total count: 3\nBinary IDs: \n\(binaryID)\n"))
      .on(.command("/tools/llvm-profdata", "merge"), .exit(0))
      .on(.command("/tools/llvm-cov", "export"), .exit(0, stdout: CoverageExportTests.export))
  }

  @Test func everyTestIsRunAloneWithItsOwnProfileAndMapped() async throws {
    let process = scripted()
    let map = try await MappingRun(process: process.client, toolDirectory: "/tools").map(request())
    let regions: Set<CoveredRegion> = [
      CoveredRegion(file: "Sources/Core/Parser.swift", lines: LineRange(3, 6)),
      CoveredRegion(file: "Tests/CoreTests/CoreTests.swift", lines: LineRange(6, 6)),
    ]
    #expect(
      map
        == CoverageMap(
          target: "CoreTests", key: "k1",
          tests: [
            TestID("CoreTests.ParserTests/testParse"): regions, TestID("CoreTests.A/`same name (ü)`()"): regions,
            TestID("CoreTests.B/`same name (ü)`()"): regions,
          ]))
    let runs = process.requests(matching: .command(binary)).filter { !$0.arguments.contains("--list-tests") }
    #expect(
      runs.map(\.arguments) == [
        ["CoreTests.ParserTests/testParse"],
        ["--testing-library", "swift-testing", "--filter", #"^CoreTests\.A/`same name \(ü\)`\(\)(/|$)"#],
        ["--testing-library", "swift-testing", "--filter", #"^CoreTests\.B/`same name \(ü\)`\(\)(/|$)"#],
      ])
    #expect(Set(runs.compactMap { $0.environment["LLVM_PROFILE_FILE"] ?? nil }).count == 3)
    // The profiles are removed once read.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["TinyPackageTests.xctest"])
  }

  @Test func aTestThatCrashesOrDoesNotRunIsUnmapped() async throws {
    let process = scripted(behaviour: [
      "CoreTests.ParserTests/testParse": (132, "Fatal error: boom", false),
      "CoreTests.A/`same name (ü)`()": (0, "Test run with 0 tests passed", true),
    ])
    let map = try await MappingRun(process: process.client, toolDirectory: "/tools").map(request())
    #expect(
      map.unmapped == [
        TestID("CoreTests.ParserTests/testParse"): "it crashed (signal 4)",
        TestID("CoreTests.A/`same name (ü)`()"): "running it alone ran no test (exit status 0)",
      ])
    #expect(Array(map.tests.keys) == [TestID("CoreTests.B/`same name (ü)`()")])
  }

  @Test func aProfileOfAnotherBuildIsNeverMerged() async throws {
    let process = scripted(binaryID: "1234")
    let map = try await MappingRun(process: process.client, toolDirectory: "/tools").map(request())
    #expect(map.tests.isEmpty)
    #expect(
      map.unmapped[TestID("CoreTests.ParserTests/testParse")]
        == "its profile is from another build (binary ids 1234, the test binary's is abcd): not merged")
    #expect(process.requests(matching: .command("/tools/llvm-profdata", "merge")).isEmpty)
  }

  @Test func aBinaryWithoutSwiftTestingHasOnlyItsXCTests() async throws {
    let process = scripted()
    // Its rule answers the listing before the scripted binary's.
    let withoutSwiftTesting = ScriptedProcess()
      .on(.command(binary, "--testing-library", "swift-testing", "--list-tests"), .exit(69))
      .on(.any, .delegate(to: process.client))
    let map = try await MappingRun(process: withoutSwiftTesting.client, toolDirectory: "/tools").map(request())
    #expect(Array(map.tests.keys) == [TestID("CoreTests.ParserTests/testParse")])
    #expect(map.unmapped.isEmpty)
  }

  @Test func aBinaryThatCannotListItsTestsIsAnErrorNamingIt() async {
    let process = ScriptedProcess()
      .on(.command(binary, "--list-tests"), .exit(1, stderr: "error: unknown option"))
    do {
      _ = try await MappingRun(process: process.client, toolDirectory: "/tools").map(request())
      Issue.record("no error")
    } catch {
      #expect(error.category == .environment)
      #expect(
        error.description
          == "the test binary \(binary) cannot list its XCTest tests (exit status 1: error: unknown option): its "
          + "target cannot be mapped and runs whole; rebuild it with `swift build --build-tests`")
    }
  }
}
