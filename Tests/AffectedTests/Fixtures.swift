import Affected
import PackageModel
import RippleConfig
import RippleCore
import Testing

/// A target before it knows its package: `pkg(...)` resolves its directory like SwiftPM's defaults.
struct TargetSpec {
  var name: String
  var kind: TargetKind
  var dependencies: [TargetDependency]
  var plugins: [TargetDependency] = []
  var path: String?
  var fingerprint: String

  func build(in package: String) -> Target {
    let defaultDirectory =
      switch kind {
      case .test: "Tests/\(name)"
      case .plugin: "Plugins/\(name)"
      default: "Sources/\(name)"
      }
    return Target(
      name: name, kind: kind, declaredPath: path, directory: RepoPath.join(package, path ?? defaultDirectory),
      dependencies: dependencies, pluginUsages: plugins, fingerprint: fingerprint)
  }

  func with(fingerprint: String, dependencies: [TargetDependency]? = nil) -> TargetSpec {
    var copy = self
    copy.fingerprint = fingerprint
    if let dependencies { copy.dependencies = dependencies }
    return copy
  }
}

func lib(_ name: String, _ dependencies: TargetDependency..., path: String? = nil) -> TargetSpec {
  TargetSpec(name: name, kind: .library, dependencies: dependencies, path: path, fingerprint: "\(name)@1")
}

func test(_ name: String, _ dependencies: TargetDependency..., path: String? = nil) -> TargetSpec {
  TargetSpec(name: name, kind: .test, dependencies: dependencies, path: path, fingerprint: "\(name)@1")
}

func pkg(
  _ path: String = ".", _ targets: [TargetSpec], products: [Product] = [], dependencies: [PackageDependency] = [],
  fingerprint: String = "tools 6.0; macOS 13"
) -> Package {
  Package(
    path: path, name: path == "." ? "Root" : String(path.split(separator: "/").last!),
    packageFingerprint: fingerprint, targets: targets.map { $0.build(in: path) }, products: products,
    dependencies: dependencies)
}

func local(_ path: String) -> PackageDependency {
  PackageDependency(identity: path.split(separator: "/").last!.lowercased(), location: .local(path: path))
}

func remote(_ identity: String, version: String = "from: 1.0.0") -> PackageDependency {
  PackageDependency(
    identity: identity, location: .remote("https://github.com/example/\(identity)"), fingerprint: version)
}

extension ChangedFile {
  static func modified(_ path: String) -> ChangedFile { ChangedFile(path: path, status: .modified) }
  static func added(_ path: String) -> ChangedFile { ChangedFile(path: path, status: .added) }
  static func deleted(_ path: String) -> ChangedFile { ChangedFile(path: path, status: .deleted) }
  static func renamed(_ old: String, _ new: String) -> ChangedFile {
    ChangedFile(path: new, status: .renamed, oldPath: old)
  }
}

/// Runs the analysis and checks the properties every result must have: every selected target has at
/// least one reason (rule 10), test targets are the test subset of `targets`, and output is sorted.
func analyze(
  _ changes: [ChangedFile], base: PackageGraph, head: PackageGraph? = nil, selection: SelectionConfig = .init(),
  resolved: [String: (base: ResolvedPins?, head: ResolvedPins?)] = [:], directOnly: Bool = false
) -> AffectedResult {
  let result = AffectedAnalysis.analyze(
    AffectedInput(
      changes: changes, base: base, head: head ?? base, resolvedChanges: resolved, selection: selection,
      directOnly: directOnly))
  for target in result.targets + result.removedTargets {
    #expect(!target.reasons.isEmpty, "\(target.package):\(target.name) has no reason")
  }
  #expect(result.testTargets == result.targets.filter { $0.kind.isTest })
  #expect(result.targets.map(\.ref) == result.targets.map(\.ref).sorted())
  #expect(result.runAll == !result.runAllReasons.isEmpty)
  return result
}

extension AffectedResult {
  var targetNames: [String] { targets.map(\.name) }
  var testNames: [String] { testTargets.map(\.name) }

  func reasons(_ name: String, package: String = ".") -> [String]? {
    (targets + removedTargets).first { $0.name == name && $0.package == package }?.reasons
  }
}

/// A root package like a small isowords: Core ← Net ← Api, a test-support target used by two test targets.
let appGraph = PackageGraph(packages: [appPackage()])

func appPackage(
  replacing replacements: [TargetSpec] = [], adding: [TargetSpec] = [], fingerprint: String? = nil,
  dependencies: [PackageDependency] = []
) -> Package {
  var specs = [
    lib("Core"),
    lib("Net", .target("Core")),
    lib("Api", .target("Net")),
    lib("TestSupport", .target("Core")),
    test("CoreTests", .target("Core"), .target("TestSupport")),
    test("NetTests", .target("Net")),
    test("ApiTests", .target("Api"), .target("TestSupport")),
  ]
  for replacement in replacements {
    specs = specs.map { $0.name == replacement.name ? replacement : $0 }
  }
  specs += adding
  return fingerprint.map { pkg(".", specs, dependencies: dependencies, fingerprint: $0) }
    ?? pkg(".", specs, dependencies: dependencies)
}
