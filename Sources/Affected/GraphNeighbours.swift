import PackageModel

/// A target's dependencies or dependents in a graph, through the edges `dependencyEdges` resolves (within and
/// across local packages): what `ripple mcp`'s graph tools answer. Pure.
public enum GraphNeighbours {
  public enum Direction: String, Sendable, CaseIterable {
    /// The targets `target` uses.
    case dependencies
    /// The targets that use `target`.
    case dependents
  }

  /// The targets one edge from `target` in `direction`, or with `transitive` every target a chain of edges
  /// reaches; sorted, without `target` itself.
  public static func of(
    _ target: TargetRef, in graph: PackageGraph, direction: Direction, transitive: Bool = false
  ) -> [TargetRef] {
    var next: [TargetRef: [TargetRef]] = [:]
    for edge in AffectedFormatter.dependencyEdges(in: graph) {
      switch direction {
      case .dependencies: next[edge.dependent, default: []].append(edge.dependency)
      case .dependents: next[edge.dependency, default: []].append(edge.dependent)
      }
    }
    var seen: Set<TargetRef> = []
    var queue = next[target] ?? []
    while let ref = queue.popLast() {
      guard ref != target, seen.insert(ref).inserted else { continue }
      if transitive { queue += next[ref] ?? [] }
    }
    return seen.sorted()
  }
}
