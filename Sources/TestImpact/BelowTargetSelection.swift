import SourceChanges

/// Which tests of one selected test target to run, from its coverage map at the compared base (pure).
///
/// Below the target only when every change is confined to function bodies: then the tests that executed a changed
/// function (or a changed file where the map could not tell functions apart), every test of a changed test file,
/// every test the map does not know (new or renamed), and every always-run test. Anything else runs the whole target,
/// with the reason.
public enum BelowTargetSelection {
  /// The map the base recorded for the target.
  public enum BaseMap: Sendable, Hashable {
    case trusted(CoverageMap)
    case missing
    /// Found but not believed (unsigned on a protected branch, another key), with why.
    case untrusted(String)
  }

  /// How one changed path of the target's closure changed.
  public enum FileChange: Sendable, Hashable {
    case swift(SourceChange)
    /// A Swift file added or removed: declarations appear or vanish.
    case swiftFileAdded
    case swiftFileRemoved
    /// Not Swift code (a manifest, a resource, a C file), with what it is.
    case other(String)
  }

  public enum Reason: Sendable, Hashable, Comparable {
    /// It executed these changed functions of this file (a whole-file region of the map counts as every function).
    case executed(file: String, functions: [String])
    case inChangedTestFile(String)
    /// The map does not know it: new or renamed.
    case notInMap
    case alwaysRun

    public static func < (a: Reason, b: Reason) -> Bool { a.order.lexicographicallyPrecedes(b.order) }

    private var order: [String] {
      switch self {
      case .executed(let file, let functions): ["0", file] + functions
      case .inChangedTestFile(let file): ["1", file]
      case .notInMap: ["2"]
      case .alwaysRun: ["3"]
      }
    }
  }

  public enum Outcome: Sendable, Hashable {
    /// The tests to run with why, and the target's other tests, which are not run.
    case tests(run: [TestID: [Reason]], notRun: [TestID])
    case wholeTarget(String)
  }

  /// - Parameters:
  ///   - changes: every changed path the target's tests can reach, relative to the repository root.
  ///   - testTargetFiles: which of those paths are the test target's own files.
  ///   - currentTests: the target's tests now (listed from its built test binary).
  public static func select(
    map base: BaseMap, changes: [String: FileChange], testTargetFiles: Set<String>, currentTests: [TestID],
    alwaysRun: Set<TestID> = []
  ) -> Outcome {
    let map: CoverageMap
    switch base {
    case .missing: return .wholeTarget("no coverage map at the base")
    case .untrusted(let why): return .wholeTarget("its coverage map at the base is not trusted: \(why)")
    case .trusted(let trusted): map = trusted
    }
    if let (test, why) = map.unmapped.min(by: { $0.key < $1.key }) {
      let more = map.unmapped.count > 1 ? " (and \(map.unmapped.count - 1) more)" : ""
      return .wholeTarget("its coverage map is partial: `\(test)`\(more) could not be mapped (\(why))")
    }
    var run: [TestID: Set<Reason>] = [:]
    for path in changes.keys.sorted() {
      let isTestFile = testTargetFiles.contains(path)
      let functions: [ChangedFunction]
      switch changes[path]! {
      case .other(let what): return .wholeTarget("\(path) changed (\(what))")
      case .swiftFileAdded: return .wholeTarget("\(path) was added")
      case .swiftFileRemoved: return .wholeTarget("\(path) was removed")
      case .swift(.unparseable(let why)): return .wholeTarget("\(path) cannot be compared: \(why)")
      case .swift(.declarations(let change)):
        guard isTestFile, let tests = change.testsOnly else {
          return .wholeTarget("\(path):\(change.line): \(change.reason)")
        }
        functions = tests.changedBodies
      case .swift(.bodiesOnly(let changed)):
        functions = changed
      }
      for (test, regions) in map.tests {
        let inFile = regions.filter { $0.file == path }
        guard !inFile.isEmpty else { continue }
        if isTestFile { run[test, default: []].insert(.inChangedTestFile(path)) }
        let executed = functions.filter { function in
          inFile.contains { region in region.lines.map { $0.overlaps(function.oldLines) } ?? true }
        }
        if !executed.isEmpty {
          run[test, default: []].insert(.executed(file: path, functions: executed.map(\.name)))
        }
      }
    }
    for test in currentTests {
      if map.tests[test] == nil { run[test, default: []].insert(.notInMap) }
      if alwaysRun.contains(test) { run[test, default: []].insert(.alwaysRun) }
    }
    let current = Set(currentTests)
    let selected = run.filter { current.contains($0.key) }.mapValues { $0.sorted() }
    return .tests(run: selected, notRun: currentTests.filter { selected[$0] == nil }.sorted())
  }
}
