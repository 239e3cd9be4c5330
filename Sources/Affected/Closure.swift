import PackageModel

/// Follows dependents from the changed targets (docs/DESIGN.md, rule 7), breadth-first in sorted order so the
/// "depends on" reason of each target names the dependency through which it was first reached.
struct Closure {
  /// The targets reached (changed ones excluded) and, for each, the dependency it was first reached from.
  private(set) var reachedVia: [TargetRef: TargetRef] = [:]
  /// Every target of the closure (changed ones included) with each of its direct dependencies that is in the
  /// closure too, sorted: the reasons beyond the first path (a test target of two changed libraries).
  private(set) var dependencies: [TargetRef: [TargetRef]] = [:]

  /// `dependents` gives the direct dependents of a target; `directOnly` stops after one hop.
  init(changed: some Sequence<TargetRef>, directOnly: Bool, dependents: (TargetRef) -> [TargetRef]) {
    let seeds = changed.sorted()
    var visited = Set(seeds)
    var frontier = seeds
    while !frontier.isEmpty {
      var next: [TargetRef] = []
      for target in frontier {
        for dependent in dependents(target) where visited.insert(dependent).inserted {
          reachedVia[dependent] = target
          next.append(dependent)
        }
      }
      frontier = directOnly ? [] : next
    }
    for target in visited.sorted() {
      for dependent in dependents(target) where dependent != target && visited.contains(dependent) {
        // With `directOnly`, only edges from a changed target count: the rest was not followed.
        guard !directOnly || reachedVia[target] == nil else { continue }
        dependencies[dependent, default: []].append(target)
      }
    }
  }

  /// "depends on Net", or "depends on Packages/Shared:Shared" when the dependency is in another package.
  static func reason(_ dependent: TargetRef, dependsOn dependency: TargetRef) -> String {
    dependency.package == dependent.package ? "depends on \(dependency.name)" : "depends on \(dependency)"
  }
}
