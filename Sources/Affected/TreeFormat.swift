import PackageModel

extension AffectedFormatter {
  /// `ripple graph` on a terminal: each package (by name, with its folder), its targets with their kind and
  /// direct dependencies, as a tree people can read (DOT, `--format dot`, is for Graphviz and pipes).
  public static func tree(graph: PackageGraph) -> String {
    let dependencies = ContentKeys.forwardEdges(in: graph)
    var lines: [String] = []
    for package in graph.packages.sorted(by: { $0.path < $1.path }) {
      lines.append(package.path == "." ? "\(package.name) (root package)" : "\(package.name) (\(package.path))")
      let targets = package.targets.sorted { $0.name < $1.name }
      for (index, target) in targets.enumerated() {
        let last = index == targets.count - 1
        let ref = TargetRef(package: package.path, name: target.name)
        let edges = (dependencies[ref] ?? []).sorted().map { $0.package == package.path ? $0.name : $0.description }
        lines.append(
          (last ? "└─ " : "├─ ") + target.name + "  " + target.kind.rawValue
            + (edges.isEmpty ? "" : " → " + edges.joined(separator: ", ")))
      }
      if targets.isEmpty { lines.append("└─ (no targets)") }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
