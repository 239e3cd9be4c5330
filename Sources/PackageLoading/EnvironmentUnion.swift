import PackageModel

/// Combines the evaluations of one manifest under several environments (or one package's graphs for
/// several `selection.toolchains` versions) into one package.
///
/// A target, product or dependency present in any environment is in the result. Fingerprints list
/// every environment's value in order (an absent entry marked), so a change visible in any
/// environment is a difference. Edges are the union over environments.
enum EnvironmentUnion {
  static let absent = "<absent>"

  /// `evaluations` holds one package per environment, in environment order, all for the same path.
  static func union(_ evaluations: [Package]) -> Package {
    guard evaluations.count > 1 else {
      guard let only = evaluations.first else { preconditionFailure("a package has at least one evaluation") }
      return only
    }
    return combine(evaluations, fingerprint: joined) { versions in
      versions.count(where: { $0 != nil }) < versions.count ? versions.indices.filter { versions[$0] != nil } : nil
    }
  }

  /// Combines one package's graphs for each `selection.toolchains` version (each already unioned over the
  /// environments), in list order: fingerprints become `ToolchainFingerprint`s naming each version's
  /// manifest, and a target exists in an environment when it does for some version.
  static func union(_ evaluations: [Package], toolchains: [(manifest: String, version: String)]) -> Package {
    precondition(evaluations.count == toolchains.count && !evaluations.isEmpty, "one package per toolchain")
    func fingerprint(_ values: [String?]) -> String {
      ToolchainFingerprint.joined(
        zip(toolchains, values).map { .init(manifest: $0.manifest, version: $0.version, fingerprint: $1) })
    }
    return combine(evaluations, fingerprint: fingerprint) { versions in
      let present = versions.compactMap { $0 }
      guard present.allSatisfy({ $0.environments != nil }) else { return nil }
      return Array(Set(present.flatMap { $0.environments ?? [] })).sorted()
    }
  }

  /// Targets, products and dependencies present in any evaluation, edges unioned, fingerprints combined
  /// by `fingerprint`; `environments` gives a target's environment indices from its per-evaluation
  /// versions (nil where it is absent).
  private static func combine(
    _ evaluations: [Package], fingerprint: ([String?]) -> String, environments: ([Target?]) -> [Int]?
  ) -> Package {
    var result = evaluations[0]
    result.packageFingerprint = fingerprint(evaluations.map { $0.packageFingerprint })
    result.targets = merge(evaluations.map(\.targets), key: \.name) { versions in
      var target = versions.lazy.compactMap { $0 }.first!
      let present = versions.compactMap { $0 }
      target.dependencies = unique(present.flatMap(\.dependencies))
      target.pluginUsages = unique(present.flatMap(\.pluginUsages))
      target.fingerprint = fingerprint(versions.map { $0?.fingerprint })
      target.environments = environments(versions)
      return target
    }
    result.products = merge(evaluations.map(\.products), key: \.name) { versions in
      var product = versions.lazy.compactMap { $0 }.first!
      product.targets = unique(versions.compactMap { $0 }.flatMap(\.targets))
      return product
    }
    result.dependencies = merge(evaluations.map(\.dependencies), key: \.identity) { versions in
      var dependency = versions.lazy.compactMap { $0 }.first!
      dependency.fingerprint = fingerprint(versions.map { $0?.fingerprint })
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
