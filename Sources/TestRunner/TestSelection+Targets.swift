import RippleCore

extension TestSelection {
  /// `ripple test --targets`: only the listed units, as a CI plan job assigned them: `package:Name`,
  /// `package:*` for a package that runs whole, `package:Name/Suite` for one suite of a target and
  /// `package:Name/-Suite` for all of a target but a suite (`ShardEntry`). A generated pipeline passes each
  /// job its exact list, so the jobs never re-plan shards on a timing history that may differ from the
  /// plan's (docs/DESIGN.md, section 5). A package that runs whole keeps only the listed targets when it is
  /// listed by target. Returns the listed ids that nothing in the selection matches, in the order given.
  /// Throws for an id that cannot be read, and for a target named in two ways (whole and by suite).
  public func restricted(to ids: [String]) throws(ShardEntryError) -> (selection: TestSelection, unmatched: [String]) {
    var entries: [ShardEntry] = []
    for id in ids { entries.append(try ShardEntry(parsing: id)) }
    var scopes: [String: SuiteScope] = [:]
    for (unit, named) in Dictionary(grouping: entries, by: \.unitID) {
      if let scope = try SuiteScope.of(named) { scopes[unit] = scope }
    }
    let wanted = Set(entries.map(\.unitID))
    var matched: Set<String> = []
    var packages: [PackageSelection] = []
    for package in self.packages {
      var kept = package
      let whole = TestUnit(package: package.path, target: nil).id
      if package.runAll && wanted.contains(whole) {
        matched.insert(whole)
        packages.append(kept)
        continue
      }
      // A package that runs whole has no target list to check the names against: `swift test` does
      // (a name it does not know is "no test ran").
      let candidates =
        package.runAll
        ? entries.filter { $0.package == package.path && $0.target != "*" }.map(\.target)
        : package.testTargets.filter { wanted.contains(TestUnit(package: package.path, target: $0).id) }
      for name in candidates { matched.insert(TestUnit(package: package.path, target: name).id) }
      kept.testTargets = Array(Set(candidates)).sorted()
      kept.runAll = false
      kept.suites = [:]
      for name in kept.testTargets {
        kept.suites[name] = scopes[TestUnit(package: package.path, target: name).id] ?? package.suites[name]
      }
      if kept.hasWork { packages.append(kept) }
    }
    let unmatched = zip(ids, entries).filter { !matched.contains($0.1.unitID) }.map(\.0)
    return (TestSelection(packages: packages), Array(unmatched.uniqued()))
  }
}

extension Sequence where Element: Hashable {
  fileprivate func uniqued() -> [Element] {
    var seen: Set<Element> = []
    return filter { seen.insert($0).inserted }
  }
}
