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
    let file = new.isXcodeProject ? "project.pbxproj" : new.manifestFile
    if old.packageFingerprint != new.packageFingerprint {
      for source in sources(file, old.packageFingerprint, new.packageFingerprint) {
        let reason =
          new.isXcodeProject
          ? "project.pbxproj: project settings changed"
          : "\(source): package settings changed (platforms, tools version, …)"
        selection.add(reason, to: refs(new.targets, in: new))
      }
    }
    for target in new.targets {
      let ref = TargetRef(package: new.path, name: target.name)
      guard let before = old.target(named: target.name) else {
        selection.add("\(file): new target", to: ref)
        continue
      }
      if before.fingerprint != target.fingerprint {
        for source in sources(file, before.fingerprint, target.fingerprint) {
          selection.add("\(source): entry changed", to: ref)
        }
      }
      // Xcode's implicit dependencies follow the workspace's projects and their products: an edge gained or
      // lost (a project added to or removed from a workspace) changes what the target builds against.
      let (edgesBefore, edgesNow) = (before.implicitEdges ?? [:], target.implicitEdges ?? [:])
      if edgesBefore != edgesNow {
        for key in Set(edgesBefore.keys).union(edgesNow.keys).sorted() where edgesBefore[key] != edgesNow[key] {
          if let now = edgesNow[key] {
            selection.add("implicit dependency added: \(now)", to: ref)
          } else if let was = edgesBefore[key] {
            selection.add("implicit dependency removed: \(was)", to: ref)
          }
        }
      }
    }
    for dependency in new.dependencies {
      let before = old.dependencies.first { $0.identity == dependency.identity }
      guard before?.fingerprint != dependency.fingerprint || before?.location != dependency.location else { continue }
      // A project reached only through implicit edges is not in project.pbxproj: the rule above says why.
      let implicitKey: String? = if case .local(let path?) = dependency.location { path + ":" } else { nil }
      let users = head.users(ofDependency: dependency.identity, in: new).filter { user in
        guard let implicitKey, let edges = new.target(named: user.name)?.implicitEdges else { return true }
        return !edges.keys.contains { $0.hasPrefix(implicitKey) }
      }
      let changedIn = before.map { sources(file, $0.fingerprint, dependency.fingerprint) } ?? [file]
      for source in changedIn.isEmpty ? [file] : changedIn {
        selection.add("\(source): dependency \(dependency.identity) changed", to: users)
      }
    }
    for product in new.products where Set(old.product(named: product.name)?.targets ?? []) != Set(product.targets) {
      selection.add(
        "\(file): product \(product.name) changed",
        to: head.users(of: ProductRef(package: new.path, name: product.name)))
    }
  }

  /// Where a fingerprint changed: `file`, or with `selection.toolchains` each version's manifest
  /// (`Package@swift-6.0.swift (Swift 6.0)`, docs/DESIGN.md rule 4).
  private func sources(_ file: String, _ old: String, _ new: String) -> [String] {
    guard let changed = ToolchainFingerprint.changedSources(old: old, new: new), !changed.isEmpty else {
      return [file]
    }
    return changed
  }

  private func refs(_ targets: [Target], in package: Package) -> [TargetRef] {
    targets.map { TargetRef(package: package.path, name: $0.name) }
  }
}
