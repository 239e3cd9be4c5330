import Foundation
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import CoverageMapping
@testable import SourceChanges
@testable import TestImpact

/// The mapping run against the real toolchain: a three-file fixture package built with coverage, its XCTest and
/// Swift Testing tests each run alone, llvm-cov's export read into a map; then a body change selects from it, and a
/// profile of that build is refused by the next.
/// One small build (~20 s of wall time on 2 busy cores): run by `make test` only with RIPPLE_MAPPING_TESTS=1, and by
/// `make mapping-test`.
@Suite(.serialized) struct MappingIntegrationTests {
  static let parser = """
    public struct Parser {
      public init() {}

      public func parse(_ text: String) -> Int {
        if text.isEmpty { return 0 }
        return text.count
      }

      public func other(x: Int) -> Int { x * 2 }
    }

    public func crash(_ really: Bool) {
      if really { fatalError("boom") }
    }
    """

  static let tests = """
    import Core
    import Testing
    import XCTest

    final class ParserTests: XCTestCase {
      func testParse() { XCTAssertEqual(Parser().parse("ab"), 2) }
      func testCrash() { crash(true) }
    }

    @Suite struct A {
      @Test("parse with spaces (and ü)") func same() { #expect(Parser().parse("") == 0) }
    }

    @Suite struct B {
      @Test func same() { #expect(Parser().other(x: 1) == 2) }
    }
    """

  /// The toolchain folder of `swift` on PATH (llvm-profdata and llvm-cov are beside it).
  static func toolDirectory() throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let swift = try #require(
      path.split(separator: ":").map { $0 + "/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) })
    return (URL(fileURLWithPath: swift).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent
  }

  /// When the profile an instrumented binary writes by default into its working directory was last written.
  static func defaultProfileDate() -> Date? {
    let path = FileManager.default.currentDirectoryPath + "/default.profraw"
    return (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["RIPPLE_MAPPING_TESTS"] == "1"))
  func mapsEachTestAloneAndSelectsTheTestsThatExecutedAChangedFunction() async throws {
    let root = RunFolder.path(prefix: "ripple-mapping-it") + "/Tiny"
    try? FileManager.default.removeItem(atPath: root)
    for (path, text) in [
      "Package.swift": """
      // swift-tools-version:6.0
      import PackageDescription
      let package = Package(
        name: "Tiny",
        targets: [.target(name: "Core"), .testTarget(name: "CoreTests", dependencies: ["Core"])])
      """,
      "Sources/Core/Parser.swift": Self.parser, "Tests/CoreTests/CoreTests.swift": Self.tests,
    ] {
      let url = URL(fileURLWithPath: root + "/" + path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    let tools = try Self.toolDirectory()
    try FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: true)
    let build = try await ProcessClient.live.run(
      ProcessRequest(
        tools + "/swift", ["build", "--build-tests", "--enable-code-coverage"] + SharedModuleCache.swiftArguments,
        workingDirectory: root, environment: ["TMPDIR": root + "/tmp"], timeout: .seconds(600)))
    try #require(build.succeeded, "\(build.outputString)\(build.errorString)")
    try FileManager.default.createDirectory(atPath: root + "/profiles", withIntermediateDirectories: true)
    let untouched = Self.defaultProfileDate()
    let map = try await MappingRun(process: .live, toolDirectory: tools).map(
      MappingRun.Request(
        binary: root + "/.build/debug/TinyPackageTests.xctest", target: "CoreTests", key: "k1", repositoryRoot: root,
        workDirectory: root + "/profiles"))

    let parse = TestID("CoreTests.ParserTests/testParse")
    let first = TestID("CoreTests.A/same()")
    let second = TestID("CoreTests.B/same()")
    let crashing = TestID("CoreTests.ParserTests/testCrash")
    #expect(Set(map.tests.keys) == [parse, first, second])
    #expect(map.unmapped[crashing]?.hasPrefix("it crashed (signal") == true)
    #expect(
      map.tests[parse]?.contains(CoveredRegion(file: "Sources/Core/Parser.swift", lines: LineRange(4, 7))) == true)
    #expect(
      map.tests[second]?.contains(CoveredRegion(file: "Sources/Core/Parser.swift", lines: LineRange(9, 9))) == true)
    #expect(map.tests[second]?.contains { $0.lines == LineRange(4, 7) } == false)
    // Profiles go to the work folder only, and are removed once read.
    #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/profiles") == [])
    #expect(Self.defaultProfileDate() == untouched)
    // Stored and read back, the map is the same.
    #expect(try CoverageMap.decode(map.encoded(), origin: "fixture") == map)

    // With the crashed test the map is partial: the target runs whole.
    let change = SourceChangeClassifier.classify(
      old: Self.parser, new: Self.parser.replacingOccurrences(of: "return 0", with: "return -1"))
    let all = [crashing, parse, first, second]
    let whole = BelowTargetSelection.select(
      map: .trusted(map), changes: ["Sources/Core/Parser.swift": .swift(change)], testTargetFiles: [],
      currentTests: all)
    guard case .wholeTarget(let reason) = whole else {
      Issue.record("a partial map selected below the target")
      return
    }
    #expect(reason.hasPrefix("its coverage map is partial: `CoreTests.ParserTests/testCrash` could not be mapped"))
    var complete = map
    complete.unmapped = [:]
    let outcome = BelowTargetSelection.select(
      map: .trusted(complete), changes: ["Sources/Core/Parser.swift": .swift(change)], testTargetFiles: [],
      currentTests: [parse, first, second])
    #expect(
      BelowTargetSummary.line(target: "CoreTests", outcome: outcome)
        == "2 of 3 tests of CoreTests: they executed Sources/Core/Parser.swift's `Parser.parse(_:)`")
    #expect(BelowTargetSummary.notRun(outcome) == ["not run: CoreTests.B/same()"])

    // A profile written by this build is refused by the next one (another build id), never merged.
    let binary = root + "/.build/debug/TinyPackageTests.xctest"
    let kept = root + "/kept.profraw"
    let written = try await ProcessClient.live.run(
      ProcessRequest(binary, ["CoreTests.ParserTests/testParse"], environment: ["LLVM_PROFILE_FILE": kept]))
    try #require(written.succeeded)
    let mapping = MappingRun(process: .live, toolDirectory: tools)
    let before = try #require(BinaryIdentity.elfBuildID(Data(contentsOf: URL(fileURLWithPath: binary))))
    #expect(try await mapping.refusal(of: kept, buildID: before) == nil)
    try Data(Self.parser.replacingOccurrences(of: "x * 2", with: "x * 3").utf8)
      .write(to: URL(fileURLWithPath: root + "/Sources/Core/Parser.swift"))
    let rebuild = try await ProcessClient.live.run(
      ProcessRequest(
        tools + "/swift", ["build", "--build-tests", "--enable-code-coverage"] + SharedModuleCache.swiftArguments,
        workingDirectory: root, environment: ["TMPDIR": root + "/tmp"], timeout: .seconds(600)))
    try #require(rebuild.succeeded)
    let after = try #require(BinaryIdentity.elfBuildID(Data(contentsOf: URL(fileURLWithPath: binary))))
    #expect(after != before)
    #expect(
      try await mapping.refusal(of: kept, buildID: after)
        == "its profile is from another build (binary ids \(before), the test binary's is \(after)): not merged")
  }
}
