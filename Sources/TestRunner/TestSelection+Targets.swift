extension TestSelection {
  /// `ripple test --targets`: only the listed units (`package:Name`, or `package:*` for a package that
  /// runs whole), as a CI plan job assigned them. A generated pipeline passes each job its exact list, so
  /// the jobs never re-plan shards on a timing history that may differ from the plan's
  /// (docs/DESIGN.md, section 5). A package that runs whole keeps only the listed targets when it is
  /// listed by target. Returns the listed ids that nothing in the selection matches, in the order given.
  public func restricted(to ids: [String]) -> (selection: TestSelection, unmatched: [String]) {
    let wanted = Set(ids)
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
        ? ids.compactMap { id in Self.target(of: id, in: package.path) }
        : package.testTargets.filter { wanted.contains(TestUnit(package: package.path, target: $0).id) }
      for name in candidates { matched.insert(TestUnit(package: package.path, target: name).id) }
      kept.testTargets = Array(Set(candidates)).sorted()
      kept.runAll = false
      if kept.hasWork { packages.append(kept) }
    }
    let unmatched = ids.filter { !matched.contains($0) }
    return (TestSelection(packages: packages), Array(unmatched.uniqued()))
  }

  /// `Name` of `package:Name` when `id` names a target of `package` (package paths may hold colons, names
  /// do not).
  private static func target(of id: String, in package: String) -> String? {
    guard id.hasPrefix(package + ":") else { return nil }
    let name = String(id.dropFirst(package.count + 1))
    return name.isEmpty || name == "*" || name.contains(":") ? nil : name
  }
}

extension Sequence where Element: Hashable {
  fileprivate func uniqued() -> [Element] {
    var seen: Set<Element> = []
    return filter { seen.insert($0).inserted }
  }
}
