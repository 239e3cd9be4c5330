import PackageModel
import RippleCore

/// Compares the evaluated manifests of the base and head graphs (docs/DESIGN.md, rule 4).
///
/// This looks at every package, whatever files changed: equal manifests give equal fingerprints, so a
/// comment-only edit changes nothing, and an edit that changes an evaluated value is found even when the
/// manifest reads another file.
struct ManifestRules {
  let base: PackageGraph
  let head: GraphIndex

  static let removedReason = "removed from Package.swift"

  /// Adds the changed targets to `selection` and returns the targets the head graph no longer has.
  func apply(to selection: inout SelectionBuilder) -> [TargetRef] {
    var removed: [TargetRef] = []
    for package in head.graph.packages {
      guard let old = base.package(at: package.path) else {
        selection.add("Package.swift: new package", to: refs(package.targets, in: package))
        continue
      }
      compare(old, package, into: &selection)
    }
    for old in base.packages {
      let current = head.graph.package(at: old.path)
      for target in old.targets where current?.target(named: target.name) == nil {
        removed.append(TargetRef(package: old.path, name: target.name))
      }
    }
    return removed
  }

  private func compare(_ old: Package, _ new: Package, into selection: inout SelectionBuilder) {
    if old.packageFingerprint != new.packageFingerprint {
      selection.add(
        "Package.swift: package settings changed (platforms, tools version, …)", to: refs(new.targets, in: new))
    }
    for target in new.targets {
      let ref = TargetRef(package: new.path, name: target.name)
      guard let before = old.target(named: target.name) else {
        selection.add("Package.swift: new target", to: ref)
        continue
      }
      if before.fingerprint != target.fingerprint { selection.add("Package.swift: entry changed", to: ref) }
    }
    for dependency in new.dependencies {
      let before = old.dependencies.first { $0.identity == dependency.identity }
      guard before?.fingerprint != dependency.fingerprint || before?.location != dependency.location else { continue }
      selection.add(
        "Package.swift: dependency \(dependency.identity) changed",
        to: head.users(ofDependency: dependency.identity, in: new))
    }
    for product in new.products where Set(old.product(named: product.name)?.targets ?? []) != Set(product.targets) {
      selection.add(
        "Package.swift: product \(product.name) changed",
        to: head.users(of: ProductRef(package: new.path, name: product.name)))
    }
  }

  private func refs(_ targets: [Target], in package: Package) -> [TargetRef] {
    targets.map { TargetRef(package: package.path, name: $0.name) }
  }
}
