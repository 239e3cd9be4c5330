import PackageModel
import RippleCore

/// Compares the pins of each changed `Package.resolved` (docs/DESIGN.md, rule 5).
///
/// A `Package.resolved` resolves the package in its directory together with the local packages that
/// package reaches through `.package(path:)`. A changed pin of a dependency one of those packages declares
/// changes the targets that use its products; a changed pin no such package declares (a transitive
/// dependency) changes every target of those packages that uses a remote product.
struct PinRules {
  let resolvedChanges: [String: (base: ResolvedPins?, head: ResolvedPins?)]
  let base: GraphIndex
  let head: GraphIndex

  func apply(to selection: inout SelectionBuilder) {
    for path in resolvedChanges.keys.sorted() {
      let (before, after) = resolvedChanges[path]!
      let oldPins = before?.pins ?? [:]
      let newPins = after?.pins ?? [:]
      let changed = Set(oldPins.keys).union(newPins.keys).filter { oldPins[$0] != newPins[$0] }.sorted()
      guard !changed.isEmpty else { continue }
      let directory = XcodeOwnership.resolvedScope(of: path)
      let index = head.graph.package(at: directory) != nil ? head : base
      let packages = index.packagesResolved(from: directory)
      for identity in changed {
        let declaring = packages.filter { package in package.dependencies.contains { $0.identity == identity } }
        if declaring.isEmpty {
          let users = packages.flatMap { package in
            package.targets.map { TargetRef(package: package.path, name: $0.name) }.filter(index.externalUsers.contains)
          }
          selection.add("Package.resolved: transitive pin \(identity) changed", to: users)
        } else {
          let reason =
            "Package.resolved: \(identity) \(oldPins[identity] ?? "(none)") → \(newPins[identity] ?? "(none)")"
          for package in declaring { selection.add(reason, to: index.users(ofDependency: identity, in: package)) }
        }
      }
    }
  }
}
