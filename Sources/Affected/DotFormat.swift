import PackageModel

extension AffectedFormatter {
  /// `--format dot`: the head graph in Graphviz, one cluster per package, edges from a target to what it
  /// depends on. Changed targets are filled red, targets reached through dependencies orange; test
  /// targets are boxes.
  public static func dot(graph: PackageGraph, _ report: AffectedReport) -> String {
    let index = GraphIndex(graph)
    var state: [TargetRef: NodeState] = [:]
    let runAllReasons = Set(report.runAllReasons)
    for target in report.targets {
      let direct = target.reasons.contains { !$0.hasPrefix("depends on ") && !runAllReasons.contains($0) }
      state[TargetRef(package: target.package, name: target.name)] = direct ? .changed : .affected
    }
    var lines = ["digraph ripple {", "  rankdir=LR;", "  node [shape=ellipse, fontname=\"Helvetica\"];"]
    // A workspace has no targets of its own (docs/DESIGN.md, rule 12): no empty cluster for it.
    for (number, package) in graph.packages.enumerated() where package.origin != .xcodeWorkspace {
      lines.append("  subgraph \(quote("cluster_\(number)")) {")
      lines.append("    label=\(quote(package.path));")
      for target in package.targets.sorted(by: { $0.name < $1.name }) {
        let ref = TargetRef(package: package.path, name: target.name)
        var attributes = ["label=\(quote(target.name))"]
        if target.kind.isTest { attributes.append("shape=box") }
        if let fill = state[ref]?.fill { attributes.append("style=filled, fillcolor=\(quote(fill))") }
        lines.append("    \(quote(ref.description)) [\(attributes.joined(separator: ", "))];")
      }
      lines.append("  }")
    }
    var edges: [String] = []
    for (dependency, dependents) in index.dependents {
      for dependent in dependents {
        edges.append("  \(quote(dependent.description)) -> \(quote(dependency.description));")
      }
    }
    lines += edges.sorted()
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  private enum NodeState {
    case changed, affected
    var fill: String { self == .changed ? "#f28b82" : "#fbbc66" }
  }

  private static func quote(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}

extension AffectedFormatter {
  /// The resolved dependency edges of `graph` (within and across local packages) whose two ends are both in
  /// `among` (nil: every edge), as (dependent, dependency) pairs, sorted: what the daemon draws for a run.
  /// Only the edges asked for are collected and sorted: a run that selects a few targets of a 4,000-target
  /// graph does not sort the graph's every edge.
  public static func dependencyEdges(in graph: PackageGraph, among targets: Set<TargetRef>? = nil)
    -> [(dependent: TargetRef, dependency: TargetRef)]
  {
    let index = GraphIndex(graph, only: targets)
    var edges: [(dependent: TargetRef, dependency: TargetRef)] = []
    if let targets {
      for dependency in targets {
        for dependent in index.dependents[dependency] ?? [] where targets.contains(dependent) {
          edges.append((dependent, dependency))
        }
      }
    } else {
      for (dependency, dependents) in index.dependents {
        for dependent in dependents { edges.append((dependent, dependency)) }
      }
    }
    return edges.sorted { ($0.dependent, $0.dependency) < ($1.dependent, $1.dependency) }
  }
}
