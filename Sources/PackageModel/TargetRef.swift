/// A target named by its package directory and name: unique within a graph.
public struct TargetRef: Sendable, Codable, Hashable, Comparable, CustomStringConvertible {
  /// Package directory relative to the repo root ("." for the root).
  public var package: String
  public var name: String

  public init(package: String, name: String) {
    self.package = package
    self.name = name
  }

  /// Sorted by package, then name.
  public static func < (lhs: TargetRef, rhs: TargetRef) -> Bool { (lhs.package, lhs.name) < (rhs.package, rhs.name) }

  /// `pkg/dir:Name`, the form `ripple.yml` uses for qualified target names.
  public var description: String { "\(package):\(name)" }
}

extension PackageGraph {
  /// Every test target of the graph, sorted by package then name.
  public var testTargets: [TargetRef] {
    packages.flatMap { package in
      package.targets.filter(\.kind.isTest).map { TargetRef(package: package.path, name: $0.name) }
    }
  }
}
