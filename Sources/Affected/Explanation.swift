extension AffectedResult {
  /// Why `target` is selected, as a chain from a changed file to it, one line per hop:
  /// `["changed Sources/Net/A.swift → Net", "Net → Api (depends on Net)", "Api → ApiTests (depends on Api)"]`.
  ///
  /// `package` picks among targets of the same name (the first, by package, when nil). Nil when the target
  /// is not selected. Removed targets take part in chains (a deleted file can reach a dependent).
  public func explanation(for target: String, package: String? = nil) -> [String]? {
    let all = targets + removedTargets
    guard var current = all.first(where: { $0.name == target && (package == nil || $0.package == package) }) else {
      return nil
    }
    var chain = [current]
    while let via = current.via, let previous = all.first(where: { $0.ref == via }),
      !chain.contains(where: { $0.ref == via })
    {
      chain.insert(previous, at: 0)
      current = previous
    }
    var lines = ["\(chain[0].reasons.first ?? "selected") → \(chain[0].name)"]
    for (dependency, dependent) in zip(chain, chain.dropFirst()) {
      lines.append(
        "\(dependency.name) → \(dependent.name) (\(dependent.reasons.first ?? "depends on \(dependency.name)"))")
    }
    return lines
  }
}
