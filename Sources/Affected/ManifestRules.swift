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
  static let removedFromProjectReason = "removed from project.pbxproj"

  /// Adds the changed targets to `selection` and returns the targets the head graph no longer has.
  func apply(to selection: inout SelectionBuilder) -> [TargetRef] {
    var removed: [TargetRef] = []
    for package in head.graph.packages {
      guard let old = base.package(at: package.path) else {
        let reason = package.isXcodeProject ? "project.pbxproj: new project" : "Package.swift: new package"
        selection.add(reason, to: refs(package.targets, in: package))
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
    // An Xcode project's entries are compared the same way (docs/DESIGN.md, rule 12).
    let file = new.isXcodeProject ? "project.pbxproj" : "Package.swift"
    if old.packageFingerprint != new.packageFingerprint {
      let reason =
        new.isXcodeProject
        ? "project.pbxproj: project settings changed"
        : "Package.swift: package settings changed (platforms, tools version, …)"
      selection.add(reason, to: refs(new.targets, in: new))
    }
    for target in new.targets {
      let ref = TargetRef(package: new.path, name: target.name)
      guard let before = old.target(named: target.name) else {
        selection.add("\(file): new target", to: ref)
        continue
      }
      if before.fingerprint != target.fingerprint { selection.add("\(file): entry changed", to: ref) }
    }
    for dependency in new.dependencies {
      let before = old.dependencies.first { $0.identity == dependency.identity }
      guard before?.fingerprint != dependency.fingerprint || before?.location != dependency.location else { continue }
      selection.add(
        "\(file): dependency \(dependency.identity) changed",
        to: head.users(ofDependency: dependency.identity, in: new))
    }
    for product in new.products where Set(old.product(named: product.name)?.targets ?? []) != Set(product.targets) {
      selection.add(
        "\(file): product \(product.name) changed",
        to: head.users(of: ProductRef(package: new.path, name: product.name)))
    }
  }

  private func refs(_ targets: [Target], in package: Package) -> [TargetRef] {
    targets.map { TargetRef(package: package.path, name: $0.name) }
  }
}
