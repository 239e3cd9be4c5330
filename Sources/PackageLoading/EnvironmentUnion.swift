import PackageModel

/// Combines the evaluations of one manifest under several environments into one package.
///
/// A target, product or dependency present in any environment is in the result. Fingerprints list
/// every environment's value in order (an absent entry marked), so a change visible in any
/// environment is a difference. Edges are the union over environments.
enum EnvironmentUnion {
  static let absent = "<absent>"

  /// `evaluations` holds one package per environment, in environment order, all for the same path.
  static func union(_ evaluations: [Package]) -> Package {
    guard var result = evaluations.first else { preconditionFailure("a package has at least one evaluation") }
    guard evaluations.count > 1 else { return result }

    result.packageFingerprint = joined(evaluations.map { $0.packageFingerprint })
    result.targets = merge(evaluations.map(\.targets), key: \.name) { versions in
      var target = versions.lazy.compactMap { $0 }.first!
      let present = versions.compactMap { $0 }
      target.dependencies = unique(present.flatMap(\.dependencies))
      target.pluginUsages = unique(present.flatMap(\.pluginUsages))
      target.fingerprint = joined(versions.map { $0?.fingerprint })
      if present.count < versions.count {
        target.environments = versions.indices.filter { versions[$0] != nil }
      }
      return target
    }
    result.products = merge(evaluations.map(\.products), key: \.name) { versions in
      var product = versions.lazy.compactMap { $0 }.first!
      product.targets = unique(versions.compactMap { $0 }.flatMap(\.targets))
      return product
    }
    result.dependencies = merge(evaluations.map(\.dependencies), key: \.identity) { versions in
      var dependency = versions.lazy.compactMap { $0 }.first!
      dependency.fingerprint = joined(versions.map { $0?.fingerprint })
      return dependency
    }
    return result
  }

  /// The elements of every list, in order of first appearance, each merged from its per-list versions.
  private static func merge<Element>(
    _ lists: [[Element]], key: (Element) -> String, combine: ([Element?]) -> Element
  ) -> [Element] {
    var order: [String] = []
    var seen: Set<String> = []
    for element in lists.joined() where seen.insert(key(element)).inserted { order.append(key(element)) }
    let indexed = lists.map { list in Dictionary(list.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first }) }
    return order.map { name in combine(indexed.map { $0[name] }) }
  }

  private static func unique<Element: Hashable>(_ elements: [Element]) -> [Element] {
    var seen: Set<Element> = []
    return elements.filter { seen.insert($0).inserted }
  }

  private static func joined(_ fingerprints: [String?]) -> String {
    fingerprints.enumerated().map { "env[\($0.offset)] \($0.element ?? absent)" }.joined(separator: "\n")
  }
}
