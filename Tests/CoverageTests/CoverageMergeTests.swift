import Foundation
import Testing

@testable import Coverage

@Suite struct CoverageMergeTests {
  @Test func recordedCoverageCountsOnlyItsOwnFilesAndNotChangedOnes() {
    let recorded = LineCoverage(files: ["core.swift": [1: 2, 2: 0], "other.swift": [1: 0], "changed.swift": [1: 1]])
    let report = CoverageMerge.merge(
      [
        TargetCoverage(
          unit: "Core:CoreTests", source: .recorded(recorded, origin: "run 1"), files: ["core.swift", "changed.swift"]),
        TargetCoverage(
          unit: "App:AppTests", source: .fresh(LineCoverage(files: ["changed.swift": [1: 0, 2: 5]])),
          files: ["changed.swift"]),
      ], changedFiles: ["changed.swift"])
    // other.swift is not CoreTests' (outside its key); changed.swift counts only fresh coverage, and the record
    // that still held it is named.
    #expect(report.coverage.files["core.swift"] == [1: 2, 2: 0])
    #expect(report.coverage.files["other.swift"] == nil)
    #expect(report.coverage.files["changed.swift"] == nil)
    #expect(report.notMeasured["changed.swift"] == ["Core:CoreTests (recorded before this file changed)"])
  }

  @Test func aCachedTargetsRecordIsOfTheChangedFilesCurrentContent() {
    let recorded = LineCoverage(files: ["changed.swift": [1: 1]])
    let report = CoverageMerge.merge(
      [
        TargetCoverage(
          unit: "P:T", source: .recorded(recorded, origin: "run 2"), files: ["changed.swift"],
          recordedAtThisContent: true)
      ], changedFiles: ["changed.swift"])
    #expect(report.coverage == recorded)
    #expect(report.notMeasured.isEmpty)
  }

  @Test func filesOfATargetWithUnknownCoverageAreNotMeasuredNeverZero() {
    let report = CoverageMerge.merge(
      [
        TargetCoverage(
          unit: "P:ATests", source: .fresh(LineCoverage(files: ["shared.swift": [1: 1], "a.swift": [1: 1]])),
          files: ["shared.swift", "a.swift"]),
        TargetCoverage(
          unit: "P:BTests", source: .notMeasured(reason: "no pass record at its key"),
          files: ["shared.swift", "b.swift", "README.md", ".build/gen.swift"]),
      ], changedFiles: [])
    #expect(report.coverage.files == ["a.swift": [1: 1]])
    #expect(report.notMeasured == ["shared.swift": ["P:BTests"], "b.swift": ["P:BTests"]])
    #expect(report.targets.map(\.source) == ["fresh", "notMeasured"])
    #expect(report.targets[1].detail == "no pass record at its key")
  }

  @Test func hitsAreAddedAcrossTargets() {
    let report = CoverageMerge.merge(
      [
        TargetCoverage(unit: "a", source: .fresh(LineCoverage(files: ["c": [1: 1, 2: 0]])), files: ["c"]),
        TargetCoverage(
          unit: "b", source: .recorded(LineCoverage(files: ["c": [1: 2, 3: 0]]), origin: "x"), files: ["c"]),
      ], changedFiles: [])
    #expect(report.coverage.files["c"] == [1: 3, 2: 0, 3: 0])
  }

  /// The merge rule over a simulated suite and history: after each commit, the selective run's merged report
  /// (fresh coverage of the targets whose keys changed, recorded coverage of the rest) equals the full run's.
  @Test(arguments: SimulatedSuite.Shape.allCases)
  func aSelectiveRunsMergedReportEqualsTheFullRunsAfter(_ shape: SimulatedSuite.Shape) {
    var suite = SimulatedSuite()
    var records: [String: LineCoverage] = [:]
    // The first commit runs everything; its records are what later runs find.
    for target in suite.testTargets { records[suite.key(of: target)] = suite.measure(target) }
    // A few commits of other shapes first, so records come from different commits.
    for earlier in [SimulatedSuite.Shape.leafEdit, .coreEdit] where earlier != shape {
      let before = suite
      suite.apply(earlier)
      _ = suite.selectiveReport(since: before, records: &records)
    }
    let before = suite
    suite.apply(shape)
    let selected = suite.testTargets.filter { records[suite.key(of: $0)] == nil }
    #expect(!selected.isEmpty || shape == .ignoredEdit)
    #expect(selected.count < suite.testTargets.count || shape == .coreEdit)
    let selective = suite.selectiveReport(since: before, records: &records)
    let full = suite.fullReport()
    #expect(LCOV.render(selective.coverage) == LCOV.render(full.coverage))
    #expect(selective.notMeasured.isEmpty)
    #expect(!full.coverage.isEmpty)
  }

  @Test func aSelectiveRunWithoutTheRecordOfAnUnselectedTargetNamesIt() {
    var suite = SimulatedSuite()
    var records: [String: LineCoverage] = [:]
    for target in suite.testTargets where target != "LeafTests" {
      records[suite.key(of: target)] = suite.measure(target)
    }
    let before = suite
    suite.apply(.appEdit)
    let report = suite.selectiveReport(since: before, records: &records)
    #expect(
      report.notMeasured.keys.sorted() == ["Leaf/Sources/Leaf/Leaf.swift", "Leaf/Tests/LeafTests/LeafTests.swift"])
    #expect(report.targets.first { $0.unit == "LeafTests" }?.source == "notMeasured")
  }
}

/// A suite of packages whose coverage is a function of file contents, as a real one's is: each test binary
/// holds every target of its package's test closures (so llvm-cov lists other targets' files with 0 hits),
/// a test target runs only code in its closure, and a target's key is its closure's files and manifest.
struct SimulatedSuite {
  enum Shape: String, CaseIterable, Sendable {
    case leafEdit, coreEdit, appEdit, manifestEdit, testOnlyEdit, deletedFile, renamedFile, addedFile, ignoredEdit
  }

  struct Target {
    var package: String
    var dependencies: [String]
    var isTest: Bool
  }

  var targets: [String: Target] = [
    "Core": Target(package: "Core", dependencies: [], isTest: false),
    "CoreTests": Target(package: "Core", dependencies: ["Core"], isTest: true),
    "Feature": Target(package: "Feature", dependencies: ["Core"], isTest: false),
    "FeatureTests": Target(package: "Feature", dependencies: ["Feature"], isTest: true),
    "App": Target(package: "App", dependencies: ["Feature"], isTest: false),
    "AppTests": Target(package: "App", dependencies: ["App"], isTest: true),
    "Extra": Target(package: "App", dependencies: [], isTest: false),
    "ExtraTests": Target(package: "App", dependencies: ["Extra"], isTest: true),
    "Leaf": Target(package: "Leaf", dependencies: [], isTest: false),
    "LeafTests": Target(package: "Leaf", dependencies: ["Leaf"], isTest: true),
  ]
  /// Path → (owning target, content version).
  var files: [String: (target: String, version: Int)] = [:]
  /// Package → manifest version.
  var manifests: [String: Int] = ["Core": 0, "Feature": 0, "App": 0, "Leaf": 0]

  init() {
    for (name, target) in targets {
      let folder = target.isTest ? "Tests" : "Sources"
      files["\(target.package)/\(folder)/\(name)/\(name).swift"] = (name, 0)
    }
    files["Core/Sources/Core/Second File ü.swift"] = ("Core", 0)
    files["App/Sources/Extra/Extra2.swift"] = ("Extra", 0)
  }

  var testTargets: [String] { targets.filter(\.value.isTest).keys.sorted() }

  func closure(_ name: String) -> Set<String> {
    var out: Set<String> = [name]
    var queue = [name]
    while let next = queue.popLast() {
      for dependency in targets[next]?.dependencies ?? [] where out.insert(dependency).inserted {
        queue.append(dependency)
      }
    }
    return out
  }

  func closureFiles(_ name: String) -> Set<String> {
    let owners = closure(name)
    return Set(files.filter { owners.contains($0.value.target) }.keys)
  }

  func key(of name: String) -> String {
    let owners = closure(name)
    let fileLines = closureFiles(name).sorted().map { "\($0)=\(files[$0]!.version)" }
    let manifestLines = Set(owners.compactMap { targets[$0]?.package }).sorted().map { "\($0)@\(manifests[$0]!)" }
    return (fileLines + manifestLines).joined(separator: ";")
  }

  /// What llvm-cov reports for the test binary of `name`'s package after running `name`'s tests only.
  func measure(_ name: String) -> LineCoverage {
    let package = targets[name]!.package
    let inBinary = testTargets.filter { targets[$0]!.package == package }.reduce(into: Set<String>()) {
      $0.formUnion(closure($1))
    }
    let reachable = closure(name)
    var coverage = LineCoverage()
    for (path, owner) in files where inBinary.contains(owner.target) {
      let count = 2 + (path.count + owner.version) % 4
      var lines: [Int: Int] = [:]
      for line in 1...count {
        lines[line * 2] = reachable.contains(owner.target) ? (path.count * line + owner.version + name.count) % 3 : 0
      }
      coverage.files[path] = lines
    }
    return coverage
  }

  mutating func apply(_ shape: Shape) {
    func bump(_ path: String) { files[path]!.version += 1 }
    switch shape {
    case .leafEdit: bump("Leaf/Sources/Leaf/Leaf.swift")
    case .coreEdit: bump("Core/Sources/Core/Second File ü.swift")
    case .appEdit: bump("App/Sources/App/App.swift")
    case .manifestEdit:
      manifests["Feature", default: 0] += 1
      targets["Feature"]!.dependencies = ["Core", "Leaf"]
    case .testOnlyEdit: bump("App/Tests/ExtraTests/ExtraTests.swift")
    case .deletedFile: files["App/Sources/Extra/Extra2.swift"] = nil
    case .renamedFile:
      let moved = files.removeValue(forKey: "Core/Sources/Core/Second File ü.swift")!
      files["Core/Sources/Core/Renamed File.swift"] = moved
    case .addedFile: files["Feature/Sources/Feature/New.swift"] = ("Feature", 0)
    case .ignoredEdit: break
    }
  }

  func changedFiles(since before: SimulatedSuite) -> Set<String> {
    var changed: Set<String> = []
    for path in Set(files.keys).union(before.files.keys) where files[path]?.version != before.files[path]?.version {
      changed.insert(path)
    }
    return changed
  }

  func fullReport() -> CoverageReport {
    CoverageMerge.merge(
      testTargets.map { TargetCoverage(unit: $0, source: .fresh(measure($0)), files: closureFiles($0)) },
      changedFiles: [])
  }

  /// Runs the targets without a record at their key, records them, and merges.
  func selectiveReport(since before: SimulatedSuite, records: inout [String: LineCoverage]) -> CoverageReport {
    var inputs: [TargetCoverage] = []
    for name in testTargets {
      let key = key(of: name)
      if let recorded = records[key] {
        inputs.append(
          TargetCoverage(unit: name, source: .recorded(recorded, origin: "earlier"), files: closureFiles(name)))
      } else if before.key(of: name) != key || records.values.isEmpty {
        let fresh = measure(name)
        records[key] = fresh
        inputs.append(TargetCoverage(unit: name, source: .fresh(fresh), files: closureFiles(name)))
      } else {
        inputs.append(
          TargetCoverage(
            unit: name, source: .notMeasured(reason: "no pass record at its key"), files: closureFiles(name)))
      }
    }
    return CoverageMerge.merge(inputs, changedFiles: changedFiles(since: before))
  }
}
