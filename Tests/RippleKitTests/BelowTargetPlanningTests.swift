import Affected
import Foundation
import PackageModel
import RippleCore
import SourceChanges
import TestImpact
import TestRunner
import Testing

@testable import RippleKit

/// How changed paths reach one selected test target for test-level selection, and how its choice narrows the run.
@Suite struct BelowTargetPlanningTests {
  static let core = TargetRef(package: ".", name: "Core")
  static let tests = TargetRef(package: ".", name: "CoreTests")
  static let other = TargetRef(package: ".", name: "Other")
  static let closure: Set<TargetRef> = [core, tests]

  static func path(
    _ path: String, _ status: ChangeStatus = .modified, owners: Set<TargetRef>? = [core], packageFile: Bool = false,
    everyone: String? = nil
  ) -> BelowTargetChanges.Path {
    let destination: KeyAttribution.Destination =
      everyone.map { .everyone($0) } ?? owners.map { .targets($0) } ?? .none
    return BelowTargetChanges.Path(
      change: ChangedFile(path: path, status: status), destination: destination, isPackageFile: packageFile)
  }

  static func classify(_ paths: [BelowTargetChanges.Path], texts: [String: (String?, String?)] = [:])
    -> BelowTargetChanges.Outcome
  {
    BelowTargetChanges.classify(paths, testTarget: tests, closure: closure) { texts[$0] ?? (nil, nil) }
  }

  @Test func aBodyChangeInTheClosureIsComparedByFunctionAndOtherTargetsPathsDoNotCount() throws {
    let old = "func f() -> Int {\n  1\n}\n"
    let new = "func f() -> Int {\n  2\n}\n"
    let outcome = Self.classify(
      [Self.path("Sources/Core/F.swift"), Self.path("Sources/Other/G.swift", owners: [Self.other])],
      texts: ["Sources/Core/F.swift": (old, new)])
    guard case .changes(let changes, let testFiles) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(Array(changes.keys) == ["Sources/Core/F.swift"])
    guard case .swift(.bodiesOnly(let functions)) = changes["Sources/Core/F.swift"] else {
      Issue.record("\(changes)")
      return
    }
    #expect(functions.map(\.name) == ["f()"])
    #expect(testFiles.isEmpty)
  }

  @Test func aTestTargetsOwnFileIsATestFile() {
    let text = "func testA() {\n  f()\n}\n"
    let outcome = Self.classify(
      [Self.path("Tests/CoreTests/T.swift", owners: [Self.tests])],
      texts: ["Tests/CoreTests/T.swift": (text, text.replacingOccurrences(of: "f()", with: "g()"))])
    guard case .changes(_, let testFiles) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(testFiles == ["Tests/CoreTests/T.swift"])
  }

  @Test(arguments: [
    (path("Package.swift", owners: nil, packageFile: true), "a manifest, Package.resolved or ripple.yml"),
    (path("VERSION", owners: nil, everyone: "global"), "counts for every target (global)"),
  ])
  func manifestsAndFilesOfEveryTargetRunItWhole(path: BelowTargetChanges.Path, reason: String) {
    guard case .whole(let why) = Self.classify([path]) else {
      Issue.record("not whole")
      return
    }
    #expect(why.contains(reason), "\(why)")
  }

  @Test func resourcesAddedRemovedRenamedOrUnreadableSwiftFilesAreNotBodies() {
    let outcome = Self.classify(
      [
        Self.path("Sources/Core/data.json"), Self.path("Sources/Core/New.swift", .added),
        Self.path("Sources/Core/Gone.swift", .deleted), Self.path("Sources/Core/Bin.swift"),
        Self.path("Sources/Core/Broken.swift"),
      ],
      texts: [
        "Sources/Core/Bin.swift": (nil, "func f() {}\n"),
        "Sources/Core/Broken.swift": ("func f() {}\n", "func f( {\n"),
      ])
    guard case .changes(let changes, _) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(changes["Sources/Core/New.swift"] == .swiftFileAdded)
    #expect(changes["Sources/Core/Gone.swift"] == .swiftFileRemoved)
    guard case .other = changes["Sources/Core/data.json"] else {
      Issue.record("a resource: \(String(describing: changes["Sources/Core/data.json"]))")
      return
    }
    guard case .swift(.unparseable(let why)) = changes["Sources/Core/Bin.swift"] else {
      Issue.record("\(String(describing: changes["Sources/Core/Bin.swift"]))")
      return
    }
    #expect(why.contains("cannot be read as UTF-8"))
    // A parse failure of a changed file: the selection runs the whole target.
    guard case .swift(.unparseable) = changes["Sources/Core/Broken.swift"] else {
      Issue.record("\(String(describing: changes["Sources/Core/Broken.swift"]))")
      return
    }
    let map = CoverageMap(target: "CoreTests", key: "k", tests: [TestID("CoreTests.S/t()"): []])
    let selection = BelowTargetSelection.select(
      map: .trusted(map), changes: ["Sources/Core/Broken.swift": changes["Sources/Core/Broken.swift"]!],
      testTargetFiles: [], currentTests: [TestID("CoreTests.S/t()")])
    guard case .wholeTarget(let reason) = selection else {
      Issue.record("\(selection)")
      return
    }
    #expect(reason.hasPrefix("Sources/Core/Broken.swift cannot be compared"), "\(reason)")
  }

  @Test func addedTestsRunTheirTopLevelSuitesWholeAndAFreeOneCannotBeNamed() {
    let tests = DeclarationChange(
      reason: "tests", line: 3,
      testsOnly: TestFunctionChanges(
        added: ["ParserTests.testNew()", "Outer.Inner.t()"], removed: [], changedBodies: []))
    #expect(
      BelowTargetChanges.suitesWithAddedTests(["T.swift": .swift(.declarations(tests))]) == ["Outer", "ParserTests"])
    let free = DeclarationChange(
      reason: "tests", line: 3, testsOnly: TestFunctionChanges(added: ["works()"], removed: [], changedBodies: []))
    #expect(BelowTargetChanges.suitesWithAddedTests(["T.swift": .swift(.declarations(free))]) == nil)
  }

  /// Two tests of one name in two suites: narrowing to one of them filters out the other.
  @Test func narrowingNamesExactlyTheChosenTestsAndDropsATargetWithNone() throws {
    let package = PackageSelection(path: ".", testTargets: ["CoreTests", "AppTests"])
    var selection = TestSelection(packages: [package])
    selection.narrow(package: package, target: "CoreTests", to: ["A/same()", "A/same()"])
    let scope = try #require(selection.packages.first?.suites["CoreTests"])
    #expect(scope == .only(["A/same()"]))
    let pattern = TestFilter.targets(["AppTests", "CoreTests"], suites: selection.packages[0].suites)
    let regex = try Regex(pattern)
    #expect("CoreTests.A/same()".contains(regex))
    #expect(!"CoreTests.B/same()".contains(regex))
    #expect("AppTests.X/y()".contains(regex))
    selection.narrow(package: selection.packages[0], target: "AppTests", to: [])
    #expect(selection.packages[0].testTargets == ["CoreTests"])
    selection.narrow(package: selection.packages[0], target: "CoreTests", to: [])
    #expect(selection.packages.isEmpty)
  }

  @Test func explainSaysWhyOneTestRunsOrNot() throws {
    var job = TestJob(
      selection: TestSelection(packages: []), options: TestRunOptions(repositoryRoot: "/r"), history: TimingHistory(),
      timingStore: TimingStore(path: "/dev/null"), warnings: [], nothingMessage: "")
    job.belowTarget = [
      BelowTargetReport(
        package: ".", target: "CoreTests", run: nil, sentence: "1 of 3",
        selected: ["CoreTests.MathTests/testMul": ["executed Sources/Core/Math.swift's `mul(_:_:)`"]],
        suitesWithNewTests: ["CoreTests.NewTests"], notRun: ["CoreTests.MathTests/testAdd"],
        mapCommit: String(repeating: "a", count: 40)),
      BelowTargetReport(
        package: ".", target: "AppTests", run: nil, sentence: "AppTests runs whole: x", wholeReason: "x"),
    ]
    #expect(
      try job.explainTest("CoreTests.MathTests/testMul")
        == "CoreTests.MathTests/testMul runs: it executed Sources/Core/Math.swift's `mul(_:_:)`")
    #expect(try job.explainTest("CoreTests/MathTests/testAdd").hasPrefix("CoreTests.MathTests/testAdd is not run"))
    #expect(try job.explainTest("CoreTests.NewTests/testX").contains("has a new or renamed test"))
    #expect(try job.explainTest("AppTests.S/t()") == "AppTests.S/t() runs: AppTests runs whole (x)")
    job.cached = [
      CachedTarget(
        package: ".", name: "CachedTests", run: nil, key: String(repeating: "1", count: 64), commit: "abc",
        branch: "main", passedIn: "ci", time: Date(), signer: nil, tests: 3, duration: 1)
    ]
    #expect(
      try job.explainTest("CachedTests.S/t()").hasPrefix("CachedTests.S/t() is not run: CachedTests is not run at all"))
    #expect(throws: RippleKitError.self) { try job.explainTest("CoreTests.Nope/t") }
    #expect(throws: RippleKitError.self) { try job.explainTest("Elsewhere.S/t") }
  }
}

/// How a map is kept in a store: gzipped canonical JSON, refused over the store's limit, never half-read.
@Suite struct StoredMapTests {
  static func map(tests: Int) -> CoverageMap {
    var covered: [TestID: Set<CoveredRegion>] = [:]
    for index in 0..<tests {
      covered[TestID("CoreTests.S/test\(index)()")] = [
        CoveredRegion(file: "Sources/Core/File\(index % 50).swift", lines: LineRange(index + 1, index + 9))
      ]
    }
    return CoverageMap(
      target: "CoreTests", key: "k", tests: covered, unmapped: [TestID("CoreTests.S/crash()"): "it crashed"])
  }

  @Test func aMapRoundTripsThroughTheStoredForm() throws {
    let map = Self.map(tests: 300)
    let bytes = try StoredMap.bytes(of: map, unit: ".:CoreTests")
    #expect(bytes.count < (try map.encoded()).count / 2, "compressed")
    #expect(try StoredMap.map(bytes, origin: "CoreTests at abc") == map)
  }

  @Test func aMapLargerThanTheStoresLimitIsNotStoredAndSaysSo() throws {
    let error = try #require(throws: CoverageMapError.self) {
      try StoredMap.bytes(of: Self.map(tests: 3000), unit: ".:CoreTests", limit: 1024)
    }
    #expect(error.description.contains("over the store's limit of 1024"), "\(error)")
    #expect(error.description.contains("runs whole"))
  }

  @Test func damagedStoredBytesAreRefusedNamingTheMap() throws {
    let bytes = try StoredMap.bytes(of: Self.map(tests: 10), unit: ".:CoreTests")
    for damaged in [Data("{}".utf8), bytes.prefix(bytes.count / 2)] {
      let error = try #require(throws: CoverageMapError.self) {
        try StoredMap.map(Data(damaged), origin: "CoreTests at abc")
      }
      #expect(error.description.contains("CoreTests at abc"), "\(error)")
    }
  }
}
