import Affected
import Foundation
import Git
import PackageModel
import PassRecords
import ResultStore
import RippleConfig
import RippleCore
import SourceChanges
import TestImpact
import TestRunner

/// How the changed paths reach one selected test target, for test-level selection (pure).
///
/// A path counts when its file is one a target of the test target's closure builds (`KeyAttribution`): a Swift
/// file is compared function by function (`SourceChangeClassifier`), anything else (a resource, a C file) runs the
/// target whole, and so does a file that counts for every key (`selection.global`, unowned files) and every
/// manifest, `Package.resolved` or ripple.yml change. Paths of other targets do not count.
public enum BelowTargetChanges {
  public struct Path: Sendable, Hashable {
    public var change: ChangedFile
    public var destination: KeyAttribution.Destination
    /// A manifest, `Package.resolved` or ripple.yml: what the graph or the keys are evaluated from.
    public var isPackageFile: Bool

    public init(change: ChangedFile, destination: KeyAttribution.Destination, isPackageFile: Bool) {
      self.change = change
      self.destination = destination
      self.isPackageFile = isPackageFile
    }
  }

  public enum Outcome: Sendable, Hashable {
    case changes([String: BelowTargetSelection.FileChange], testFiles: Set<String>)
    case whole(String)
  }

  /// - Parameters:
  ///   - texts: the old (map's commit) and new text of a changed Swift file; nil when one cannot be read as UTF-8.
  public static func classify(
    _ paths: [Path], testTarget: TargetRef, closure: Set<TargetRef>,
    texts: (String) -> (old: String?, new: String?)
  ) -> Outcome {
    var changes: [String: BelowTargetSelection.FileChange] = [:]
    var testFiles: Set<String> = []
    for path in paths.sorted(by: { $0.change.path < $1.change.path }) {
      let change = path.change
      if path.isPackageFile { return .whole("\(change.path) changed (a manifest, Package.resolved or ripple.yml)") }
      let owners: Set<TargetRef>
      switch path.destination {
      case .none: continue
      case .everyone(let kind): return .whole("\(change.path) changed, which counts for every target (\(kind))")
      case .targets(let targets): owners = targets.intersection(closure)
      }
      guard !owners.isEmpty else { continue }
      if owners.contains(testTarget) { testFiles.insert(change.path) }
      guard change.path.hasSuffix(".swift") else {
        changes[change.path] = .other("not Swift source: a resource or another language's file")
        continue
      }
      switch change.status {
      case .added, .copied: changes[change.path] = .swiftFileAdded
      case .deleted: changes[change.path] = .swiftFileRemoved
      case .renamed: changes[change.oldPath ?? change.path] = .swiftFileRemoved
      case .typeChanged: changes[change.path] = .other("its file type changed")
      case .modified:
        let (old, new) = texts(change.path)
        guard let old, let new else {
          let side = old == nil ? "its text at the coverage map's commit" : "its new text"
          changes[change.path] = .swift(.unparseable("\(side) cannot be read as UTF-8"))
          continue
        }
        changes[change.path] = .swift(SourceChangeClassifier.classify(old: old, new: new))
      }
    }
    return .changes(changes, testFiles: testFiles)
  }

  /// The top-level suites (relative to the target: `ParserTests`) holding tests added in changed test files: they
  /// run whole, since no map knows the new tests. Nil when an added test has no suite (a free `@Test` function).
  public static func suitesWithAddedTests(_ changes: [String: BelowTargetSelection.FileChange]) -> [String]? {
    var suites: Set<String> = []
    for change in changes.values {
      guard case .swift(.declarations(let declaration)) = change, let tests = declaration.testsOnly else { continue }
      for name in tests.added {
        let head = name.split(separator: "(", maxSplits: 1).first.map(String.init) ?? name
        guard let dot = head.firstIndex(of: ".") else { return nil }
        suites.insert(String(head[..<dot]))
      }
    }
    return suites.sorted()
  }
}

/// A selected target's map, found by walking back from the compared base.
struct FoundMap: Sendable {
  var commit: ObjectID
  var record: MapRecord
  var map: CoverageMap
}

extension Workspace {
  /// How many first-parent commits back from the compared base a map is looked for: a commit that did not change a
  /// target was not mapped again for it.
  static let mapLookback = 50

  /// `test.granularity: test`: each selected test target whose coverage map is found at the base (or up to
  /// `mapLookback` first-parent commits before it) and whose changes are confined to function bodies runs only the
  /// tests that executed a changed function; the others run whole, with why (docs/DESIGN.md, "Below the target").
  func applyBelowTarget(to job: inout TestJob, request: TestRequest, graph: PackageGraph?) async {
    guard request.granularity ?? configuration.test.granularity == .test, let graph else { return }
    let candidates = job.selection.packages.flatMap { package in
      package.runAll || package.run?.xcodebuild != nil
        ? []
        : package.testTargets.filter { package.suites[$0] == nil }.map { (package, $0) }
    }
    guard !candidates.isEmpty, let outcome = job.affected else { return }
    func whole(_ reason: String) {
      job.belowTarget = candidates.map { package, target in
        BelowTargetReport(
          package: package.path, target: target, run: package.run?.name, sentence: "\(target) runs whole: \(reason)",
          wholeReason: reason)
      }
    }
    guard let recording = job.passRecording else {
      return whole("coverage maps are kept in the result store, and pass records are off for this run")
    }
    if recording.storeDown { return whole("the result store did not answer") }
    let changeSet = outcome.changeSet
    if changeSet.changesGiven {
      return whole("the changes were given as a list (--changed-files): there is no base to compare functions with")
    }
    let line: [ObjectID]
    do { line = try repository.firstParentLine(from: changeSet.from, limit: Self.mapLookback) } catch {
      return whole("the history before the base cannot be read: \(error)")
    }
    let attribution = KeyAttribution(
      graph: graph, selection: configuration.selection, assets: configuration.assets,
      configPath: configuration.sourcePath.map { RepoPath.relative($0, to: root) })
    let dependencies = ContentKeys.forwardEdges(in: graph)
    let alwaysRun = Set(configuration.test.alwaysRun.map(TestID.init))
    guard let policy = recording.policy else { return whole("no trust rules for coverage maps") }
    let maps = await findMaps(candidates, line: line, store: recording.store, policy: policy)
    var diffs: [ObjectID: [BelowTargetChanges.Path]] = [:]
    var reports: [BelowTargetReport] = []
    for (index, (package, target)) in candidates.enumerated() {
      let ref = TargetRef(package: package.path, name: target)
      let run = package.run?.name
      func report(_ reason: String) {
        reports.append(
          BelowTargetReport(
            package: package.path, target: target, run: run, sentence: "\(target) runs whole: \(reason)",
            wholeReason: reason))
      }
      let found: FoundMap
      switch maps[index] {
      case .success(let map): found = map
      case .failure(let reason):
        report(reason.text)
        continue
      }
      let mapCommit = found.commit
      if diffs[mapCommit] == nil {
        do {
          let changes =
            mapCommit == changeSet.from
            ? changeSet.changes
            : try changeSet.head.map { try repository.changes(from: mapCommit, to: $0) }
              ?? repository.changesToWorkingTree(from: mapCommit)
          diffs[mapCommit] = changes.map { change in
            BelowTargetChanges.Path(
              change: change, destination: attribution.destination(of: change.path),
              isPackageFile: AttributionIndex.isPackageFile(change.path, in: [attribution.index])
                || change.path == configuration.sourcePath.map { RepoPath.relative($0, to: root) })
          }
        } catch {
          report("the changes since its coverage map's commit \(mapCommit.short) cannot be read: \(error)")
          continue
        }
      }
      let closure = ContentKeys.closure(of: [ref], dependencies: dependencies)
      let classified = BelowTargetChanges.classify(diffs[mapCommit]!, testTarget: ref, closure: closure) { path in
        self.texts(of: path, old: mapCommit, head: changeSet.head)
      }
      guard case .changes(let changes, let testFiles) = classified else {
        if case .whole(let reason) = classified { report(reason) }
        continue
      }
      // Added tests run by their suites (a test file whose only declaration changes are tests is compared by bodies).
      guard let newSuites = BelowTargetChanges.suitesWithAddedTests(changes) else {
        report("a test function without a suite was added: no filter can name it before it is built")
        continue
      }
      let current = Array(found.map.tests.keys) + Array(found.map.unmapped.keys)
      let selection = BelowTargetSelection.select(
        map: .trusted(found.map), changes: changes, testTargetFiles: testFiles, currentTests: current,
        alwaysRun: alwaysRun)
      switch selection {
      case .wholeTarget(let reason): report(reason)
      case .tests(let chosen, let notRun):
        // A test the filter cannot name alone (no `Target.` prefix) runs the target whole.
        guard chosen.keys.allSatisfy({ $0.id.hasPrefix(target + ".") }) else {
          report("a selected test's name does not start with \(target).: it cannot be filtered alone")
          continue
        }
        let notRunNow = notRun.filter { test in !newSuites.contains { test.id.hasPrefix(target + "." + $0 + "/") } }
        var sentence = BelowTargetSummary.line(target: target, outcome: .tests(run: chosen, notRun: notRunNow))
        if !newSuites.isEmpty {
          sentence +=
            "; and the suite\(newSuites.count == 1 ? "" : "s") " + newSuites.joined(separator: ", ")
            + " whole, for new or renamed tests"
        }
        reports.append(
          BelowTargetReport(
            package: package.path, target: target, run: run, sentence: sentence,
            selected: Dictionary(
              uniqueKeysWithValues: chosen.map { ($0.key.id, $0.value.map(BelowTargetSummary.phrase)) }),
            suitesWithNewTests: newSuites.map { target + "." + $0 }, notRun: notRunNow.map(\.id),
            mapCommit: found.record.commit))
        let items = chosen.keys.map { String($0.id.dropFirst(target.count + 1)) } + newSuites
        job.selection.narrow(package: package, target: target, to: items)
      }
    }
    job.belowTarget = reports
    if job.selection.isEmpty && job.cached.isEmpty {
      // Not "no test target is affected": targets were, and none of their tests executed what changed.
      job.nothingMessage =
        "no test of the selected test targets executed what changed: nothing was built or run\n"
        + reports.map { "  " + $0.sentence }.joined(separator: "\n")
    }
  }

  /// Each candidate's map, looked up side by side (a shared store answers each lookup over the network, and a target
  /// without a map costs a lookup per commit of the line), in the candidates' order.
  func findMaps(
    _ candidates: [(PackageSelection, String)], line: [ObjectID], store: ResultStoreClient, policy: TrustPolicy
  ) async -> [Result<FoundMap, MapMiss>] {
    var results = [Result<FoundMap, MapMiss>?](repeating: nil, count: candidates.count)
    await withTaskGroup(of: (Int, Result<FoundMap, MapMiss>).self) { group in
      var next = 0
      func start() {
        guard next < candidates.count else { return }
        let (package, target) = candidates[next]
        let index = next
        group.addTask {
          (
            index,
            await findMap(
              package: package.path, target: target, run: package.run?.name, line: line, store: store, policy: policy)
          )
        }
        next += 1
      }
      // At most 16 lookups at once.
      for _ in 0..<16 { start() }
      for await (index, result) in group {
        results[index] = result
        start()
      }
    }
    return results.map { $0! }
  }

  /// The old and new text of `path`: the map's commit, and the head commit or the working tree.
  func texts(of path: String, old commit: ObjectID, head: ObjectID?) -> (old: String?, new: String?) {
    let old = (try? repository.blob(at: commit, path: path)).flatMap { $0 }.flatMap {
      String(validating: $0, as: UTF8.self)
    }
    let newBytes: [UInt8]?
    if let head {
      newBytes = (try? repository.blob(at: head, path: path)).flatMap { $0 }
    } else {
      newBytes = FileManager.default.contents(atPath: root + "/" + path).map { Array($0) }
    }
    return (old, newBytes.flatMap { String(validating: $0, as: UTF8.self) })
  }

  struct MapMiss: Error {
    var text: String
  }

  /// The nearest trusted map of the target on the first-parent line, its blob checked against its digest and its
  /// own names. An untrusted record is not passed over for an older one: it is the reason the target runs whole.
  func findMap(
    package: String, target: String, run: String?, line: [ObjectID], store: ResultStoreClient, policy: TrustPolicy
  ) async -> Result<FoundMap, MapMiss> {
    for commit in line {
      let key = MapRecord.storeKey(commit: commit.hex, package: package, target: target, run: run)
      let data: Data
      do {
        guard let found = try await store.load(key) else { continue }
        data = found
      } catch {
        return .failure(MapMiss(text: "the result store could not be read for its coverage map: \(error)"))
      }
      let record: MapRecord
      switch policy.judgeMap(
        data, commit: commit.hex, package: package, target: target, run: run,
        storeIsOnlyThisUsers: store.writtenOnlyByThisUser)
      {
      case .trusted(let trusted, _): record = trusted
      case .ignored(let reason):
        return .failure(MapMiss(text: "its coverage map at \(commit.short) is not trusted: \(reason)"))
      }
      let blob: Data
      do {
        guard let loaded = try await store.load(record.map) else {
          return .failure(MapMiss(text: "its coverage map at \(commit.short) is missing from the store"))
        }
        blob = loaded
      } catch {
        return .failure(MapMiss(text: "the result store could not be read for its coverage map: \(error)"))
      }
      guard MapRecord.blobKey(of: blob) == record.map else {
        return .failure(MapMiss(text: "its coverage map at \(commit.short) does not match its digest: not used"))
      }
      do {
        let map = try StoredMap.map(blob, origin: "\(target) at \(commit.short)")
        guard map.target == target, map.key == record.key.hex else {
          return .failure(MapMiss(text: "its coverage map at \(commit.short) is of another target or key: not used"))
        }
        return .success(FoundMap(commit: commit, record: record, map: map))
      } catch {
        return .failure(MapMiss(text: error.description))
      }
    }
    return .failure(
      MapMiss(
        text: "no coverage map at the base or the \(line.count - 1) commits before it (a protected branch's run of "
          + "`ripple test --granularity test` makes them)"))
  }
}

extension TestSelection {
  /// Runs only `items` (`Suite/test`, or `Suite` whole) of `target` in `package`'s run; no item: the target is
  /// not run at all (and a package left with nothing is dropped).
  mutating func narrow(package: PackageSelection, target: String, to items: [String]) {
    guard let index = packages.firstIndex(where: { $0.path == package.path && $0.run == package.run }) else { return }
    if items.isEmpty {
      packages[index].testTargets.removeAll { $0 == target }
      if !packages[index].hasWork { packages.remove(at: index) }
    } else {
      packages[index].suites[target] = .only(Array(Set(items)).sorted())
    }
  }
}

extension TestJob {
  /// `ripple test --explain TARGET/TEST`: why one test of a selected target runs or not. `TARGET/TEST` is the test's
  /// id (`CoreTests.ParserTests/testParse`) or the target, a slash, and the rest (`CoreTests/ParserTests/testParse`).
  public func explainTest(_ name: String) throws -> String {
    let target = belowTarget.first { name.hasPrefix($0.target + ".") || name.hasPrefix($0.target + "/") }
    if target == nil,
      let skipped = cached.first(where: { name.hasPrefix($0.name + ".") || name.hasPrefix($0.name + "/") })
    {
      return "\(name) is not run: \(skipped.name) is not run at all, it passed before at this content "
        + "(\(skipped.sentence(now: Date())))"
    }
    guard let report = target else {
      let selected = belowTarget.map(\.target)
      throw RippleKitError.testNotExplained(
        name,
        detail: selected.isEmpty
          ? "no test target is selected for this change"
          : "it is of none of the selected targets (\(selected.joined(separator: ", ")))")
    }
    let rest = String(name.dropFirst(report.target.count + 1))
    let id = report.target + "." + rest
    if let answer = report.explain(id) { return answer }
    throw RippleKitError.testNotExplained(
      name, detail: "\(report.target)'s coverage map does not know it (a new test runs with its suite)")
  }
}
