/// Which implicit edges the shared schemes let stand (docs/DESIGN.md, rule 12). A scheme whose build
/// action says `buildImplicitDependencies = "NO"` builds only its entries, testables and what they
/// depend on explicitly: a product linked implicitly is then taken as it is in the build folder, not
/// rebuilt. An implicit edge `T → P` is dropped only when no scheme could rebuild `P` for `T`:
/// - some shared scheme builds `T` (from its entries and testables through explicit dependencies), and
///   every such scheme has implicit dependencies off;
/// - no scheme with implicit dependencies on (the default, and what a scheme Xcode makes itself does)
///   reaches `T`, through explicit or implicit edges;
/// - none of the schemes building `T` builds `P` through its own entries and explicit dependencies.
/// A target no shared scheme builds keeps its edges. Anything else keeps them: a missed test costs more.
public enum ImplicitSchemeRule {
  /// `edges`: project path → target name → its implicit edges. Returns what stays.
  public static func kept(
    _ edges: [String: [String: [ImplicitDependencies.Edge]]], projects: [XcodeProject], schemes: [XcodeScheme],
    testPlans: [String: XcodeTestPlan]
  ) -> [String: [String: [ImplicitDependencies.Edge]]] {
    guard schemes.contains(where: { !$0.buildsImplicitDependencies }) else { return edges }
    let byPath = Dictionary(projects.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    // Nodes are "project:target"; explicit edges are target and cross-project dependencies.
    var explicit: [String: [String]] = [:]
    for project in projects {
      for target in project.targets {
        explicit[project.path + ":" + target.name] =
          target.dependencies.map { project.path + ":" + $0 }
          + target.foreignDependencies.map { $0.project + ":" + $0.target }
      }
    }
    var both = explicit
    for (project, targets) in edges {
      for (target, list) in targets {
        both[project + ":" + target, default: []] += list.map { $0.project + ":" + $0.target }
      }
    }
    func roots(_ scheme: XcodeScheme) -> [String] {
      var entries = scheme.buildEntries + scheme.testables
      for plan in scheme.testPlans { entries += testPlans[plan.path]?.targets ?? [] }
      return entries.map { entry in
        let (package, name) = XcodeGraphMapper.ref(of: entry, projects: byPath)
        return package + ":" + name
      }
    }
    func reach(_ starts: [String], over graph: [String: [String]]) -> Set<String> {
      var seen = Set(starts)
      var queue = starts
      while let next = queue.popLast() {
        for dependency in graph[next] ?? [] where seen.insert(dependency).inserted { queue.append(dependency) }
      }
      return seen
    }
    let builtWithImplicit = reach(
      schemes.filter(\.buildsImplicitDependencies).flatMap(roots), over: both)
    let builtWithout = schemes.filter { !$0.buildsImplicitDependencies }.map { reach(roots($0), over: explicit) }

    var result: [String: [String: [ImplicitDependencies.Edge]]] = [:]
    for (project, targets) in edges {
      for (target, list) in targets {
        let node = project + ":" + target
        let schemesBuilding = builtWithout.filter { $0.contains(node) }
        let stays =
          builtWithImplicit.contains(node) || schemesBuilding.isEmpty
          ? list
          : list.filter { edge in schemesBuilding.contains { $0.contains(edge.project + ":" + edge.target) } }
        if !stays.isEmpty { result[project, default: [:]][target] = stays }
      }
    }
    return result
  }
}
