import PackageLoading
import PackageModel
import XcodeModel

/// A compact binary form of an `XcodeSnapshot` for the Xcode cache (`XcodeCache`): length-prefixed
/// strings and counts, like the package graph's `GraphArchive`. `decode` checks every length and returns
/// nil on anything unexpected; the cache entry's checksum guards the bytes.
enum XcodeArchive {
  static func encode(_ snapshot: XcodeSnapshot) -> [UInt8] {
    var w = ArchiveWriter()
    w.strings(snapshot.containers)
    w.count(snapshot.projects.count)
    for project in snapshot.projects {
      w.string(project.path)
      w.string(project.name)
      w.string(project.sourceRoot)
      w.string(project.fingerprint)
      w.strings(project.fileReferences)
      w.count(project.packageReferences.count)
      for reference in project.packageReferences {
        w.string(reference.id)
        switch reference.location {
        case .local(let path):
          w.count(0)
          w.optional(path)
        case .remote(let url):
          w.count(1)
          w.string(url)
        }
        w.string(reference.identity)
        w.string(reference.fingerprint)
      }
      w.count(project.targets.count)
      for target in project.targets {
        w.string(target.id)
        w.string(target.name)
        w.string(target.productType)
        w.string(target.kind.rawValue)
        w.strings(target.paths)
        w.strings(target.excludedPaths)
        w.strings(target.dependencies)
        w.optional(target.host)
        w.count(target.productDependencies.count)
        for product in target.productDependencies {
          w.string(product.name)
          w.optional(product.packageReference)
        }
        w.string(target.fingerprint)
        w.count(target.foreignDependencies.count)
        for foreign in target.foreignDependencies {
          w.string(foreign.project)
          w.string(foreign.target)
        }
        w.strings(target.linkedProducts)
        w.optional(target.productFile)
        w.strings(target.linkerFlagProducts.flatMap { [$0.product, $0.flag] })
      }
      w.strings(project.warnings)
    }
    w.count(snapshot.workspaces.count)
    for workspace in snapshot.workspaces {
      w.string(workspace.path)
      w.strings(workspace.references)
    }
    w.count(snapshot.schemes.count)
    for scheme in snapshot.schemes {
      w.string(scheme.name)
      w.string(scheme.path)
      w.string(scheme.container)
      w.entries(scheme.testables)
      w.count(scheme.testPlans.count)
      for plan in scheme.testPlans {
        w.string(plan.path)
        w.count(plan.isDefault ? 1 : 0)
      }
      w.entries(scheme.buildEntries)
      w.count(scheme.buildsImplicitDependencies ? 1 : 0)
    }
    let plans = snapshot.testPlans.values.sorted { $0.path < $1.path }
    w.count(plans.count)
    for plan in plans {
      w.string(plan.path)
      w.entries(plan.targets)
    }
    return w.bytes
  }

  static func decode(_ bytes: ArraySlice<UInt8>) -> XcodeSnapshot? {
    var r = ArchiveReader(bytes: bytes)
    do {
      var snapshot = XcodeSnapshot()
      snapshot.containers = try r.strings()
      for _ in 0..<(try r.count()) {
        let path = try r.string()
        let name = try r.string()
        let sourceRoot = try r.string()
        let fingerprint = try r.string()
        let fileReferences = try r.strings()
        var references: [XcodePackageReference] = []
        for _ in 0..<(try r.count()) {
          let id = try r.string()
          let location: PackageDependency.Location
          switch try r.count() {
          case 0: location = .local(path: try r.optional())
          case 1: location = .remote(try r.string())
          default: return nil
          }
          references.append(
            XcodePackageReference(id: id, location: location, identity: try r.string(), fingerprint: try r.string()))
        }
        var targets: [XcodeTarget] = []
        for _ in 0..<(try r.count()) {
          let id = try r.string()
          let targetName = try r.string()
          let productType = try r.string()
          guard let kind = TargetKind(rawValue: try r.string()) else { return nil }
          let paths = try r.strings()
          let excluded = try r.strings()
          let dependencies = try r.strings()
          let host = try r.optional()
          var products: [XcodeProductDependency] = []
          for _ in 0..<(try r.count()) {
            products.append(XcodeProductDependency(name: try r.string(), packageReference: try r.optional()))
          }
          var target = XcodeTarget(
            id: id, name: targetName, productType: productType, kind: kind, paths: paths, excludedPaths: excluded,
            dependencies: dependencies, host: host, productDependencies: products, fingerprint: try r.string())
          for _ in 0..<(try r.count()) {
            target.foreignDependencies.append(XcodeForeignDependency(project: try r.string(), target: try r.string()))
          }
          target.linkedProducts = try r.strings()
          target.productFile = try r.optional()
          let flags = try r.strings()
          guard flags.count % 2 == 0 else { return nil }
          target.linkerFlagProducts = stride(from: 0, to: flags.count, by: 2).map {
            LinkerFlags.Use(product: flags[$0], flag: flags[$0 + 1])
          }
          targets.append(target)
        }
        var project = XcodeProject(
          path: path, name: name, sourceRoot: sourceRoot, fingerprint: fingerprint, targets: targets,
          packageReferences: references, fileReferences: fileReferences)
        project.warnings = try r.strings()
        snapshot.projects.append(project)
      }
      for _ in 0..<(try r.count()) {
        snapshot.workspaces.append(XcodeWorkspace(path: try r.string(), references: try r.strings()))
      }
      for _ in 0..<(try r.count()) {
        let name = try r.string()
        let path = try r.string()
        let container = try r.string()
        let testables = try r.entries()
        var plans: [XcodeScheme.TestPlanReference] = []
        for _ in 0..<(try r.count()) {
          plans.append(XcodeScheme.TestPlanReference(path: try r.string(), isDefault: try r.count() == 1))
        }
        var scheme = XcodeScheme(name: name, path: path, container: container, testables: testables, testPlans: plans)
        scheme.buildEntries = try r.entries()
        scheme.buildsImplicitDependencies = try r.count() == 1
        snapshot.schemes.append(scheme)
      }
      for _ in 0..<(try r.count()) {
        let path = try r.string()
        snapshot.testPlans[path] = XcodeTestPlan(path: path, targets: try r.entries())
      }
      guard r.isAtEnd else { return nil }
      return snapshot
    } catch {
      return nil
    }
  }
}

extension ArchiveWriter {
  mutating func entries(_ values: [TestEntry]) {
    count(values.count)
    for entry in values {
      string(entry.container)
      string(entry.identifier)
      string(entry.name)
      count(entry.enabled ? 1 : 0)
    }
  }
}

extension ArchiveReader {
  mutating func entries() throws(Truncated) -> [TestEntry] {
    let n = try itemCount()
    var values: [TestEntry] = []
    for _ in 0..<n {
      values.append(
        TestEntry(container: try string(), identifier: try string(), name: try string(), enabled: try count() == 1))
    }
    return values
  }
}
