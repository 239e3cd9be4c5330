import Foundation
import PackageModel
import RippleCore
import SystemClients

/// Loads the package graph of one revision: discovers the packages, evaluates their manifests with
/// SwiftPM (cache first), and resolves target directories against the revision's files.
public struct GraphLoader: Sendable {
  public var process: ProcessClient
  public var cache: ManifestCache
  public var swiftExecutable: String
  /// At most this many `dump-package` processes run at once.
  public var concurrency: Int

  public init(
    process: ProcessClient, cache: ManifestCache, swiftExecutable: String = "swift",
    concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
  ) {
    self.process = process
    self.cache = cache
    self.swiftExecutable = swiftExecutable
    self.concurrency = max(1, concurrency)
  }

  /// The toolchain identity used in cache keys: the first lines of `swift --version`.
  public func toolchainVersion() async throws -> String {
    try await toolchain.version()
  }

  /// Discovers the packages of `tree` (every directory with a `Package.swift`, minus any path with a
  /// `.build` component and directories matching `excludePackages`), evaluates each manifest once per
  /// environment (cache first), unions the environments, resolves target directories against
  /// `tree.files`, and returns the graph. An empty `environments` means one empty environment.
  /// Every manifest is evaluated even when one fails; the failures are then thrown together.
  public func loadGraph(
    _ tree: TreeSnapshot, environments: [[String: String]], excludePackages: [Glob]
  ) async throws -> PackageGraph {
    let loaded = try await loadPartialGraph(tree, environments: environments, excludePackages: excludePackages)
    if let error = PackageGraphError.combining(loaded.failures) { throw error }
    return loaded.graph
  }

  /// As `loadGraph`, but a package whose manifest does not evaluate is left out of the graph and listed
  /// with its error instead: `--fallback all` still knows every other package's tests.
  public func loadPartialGraph(
    _ tree: TreeSnapshot, environments: [[String: String]], excludePackages: [Glob]
  ) async throws -> PartialGraph {
    let version = try await toolchain.version()
    guard let swiftVersion = ManifestSelection.swiftVersion(fromVersionOutput: version) else {
      throw PackageGraphError.toolchainUnusable(executable: swiftExecutable, message: "no version in `\(version)`")
    }
    let environments = environments.isEmpty ? [[:]] : environments
    let packages = try PackageDiscovery.packageDirectories(in: tree.files, excludePackages: excludePackages)
      .map { try ManifestInput(packagePath: $0, tree: tree, swiftVersion: swiftVersion) }

    // One job per package and environment; cached documents first, the rest evaluated.
    var documents: [[JSONValue?]] = packages.map { _ in environments.map { _ in nil } }
    var misses: [(package: Int, environment: Int, job: ManifestEvaluator.Job, key: String)] = []
    for (p, package) in packages.enumerated() {
      for (e, environment) in environments.enumerated() {
        let effective = Self.effectiveEnvironment(environment, all: environments)
        let key = ManifestCache.key(
          manifest: package.manifest, manifestFile: package.manifestFile, packagePath: package.packagePath,
          rootName: tree.rootName, environment: effective, toolchain: version)
        if let cached = cache.entry(forKey: key), let document = try? JSONValue.parse(cached) {
          documents[p][e] = document
        } else {
          let job = ManifestEvaluator.Job(
            packagePath: package.packagePath, environment: effective, declaredEnvironment: environment)
          misses.append((p, e, job, key))
        }
      }
    }

    var failures: [Int: PackageGraphError] = [:]
    if !misses.isEmpty {
      let evaluated = try await evaluate(misses.map(\.job), in: tree)
      for (miss, outcome) in zip(misses, evaluated) {
        switch outcome {
        case .success(let document):
          documents[miss.package][miss.environment] = document
          cache.store(Array(document.canonicalText.utf8), forKey: miss.key)
        case .failure(let error):
          if failures[miss.package] == nil { failures[miss.package] = error }
        }
      }
    }

    let directories = tree.directories()
    var evaluatedPackages: [Package] = []
    for (p, package) in packages.enumerated() where failures[p] == nil {
      let evaluations = try documents[p].map { document in
        do {
          return try ManifestMapper.package(
            from: document!, path: package.packagePath, manifestFile: package.manifestFile,
            directories: directories)
        } catch let error as ManifestMapper.FormatError {
          throw PackageGraphError.unexpectedManifestOutput(
            packagePath: package.packagePath, revision: tree.label, reason: error.reason)
        }
      }
      evaluatedPackages.append(EnvironmentUnion.union(evaluations))
    }
    return PartialGraph(
      graph: PackageGraph(packages: evaluatedPackages),
      failures: failures.sorted { $0.key < $1.key }.map(\.value),
      failedPackages: failures.keys.sorted().map { packages[$0].packagePath })
  }

  /// The repo-relative directories of the packages `loadGraph` would evaluate, without evaluating them.
  public static func packagePaths(in tree: TreeSnapshot, excludePackages: [Glob]) -> [String] {
    PackageDiscovery.packageDirectories(in: tree.files, excludePackages: excludePackages)
  }

  /// The variables of `environment` set, and every variable another entry sets but this one does not
  /// removed: otherwise a `TEST_SERVER` exported in the user's shell would leak into the `{}` entry.
  static func effectiveEnvironment(_ environment: [String: String], all: [[String: String]]) -> [String: String?] {
    var result: [String: String?] = [:]
    for other in all { for name in other.keys { result[name] = .some(nil) } }
    for (name, value) in environment { result[name] = value }
    return result
  }

  private var toolchain: Toolchain {
    Toolchain(process: process, cache: cache, executable: swiftExecutable)
  }

  /// Runs the jobs, at most `concurrency` at a time, in place for the working tree or in a scratch
  /// directory for a git revision. Results are in job order; a manifest that fails is a `.failure`.
  private func evaluate(
    _ jobs: [ManifestEvaluator.Job], in tree: TreeSnapshot
  ) async throws -> [Result<JSONValue, PackageGraphError>] {
    let directory = try EvaluationDirectory(rootName: tree.rootName)
    defer { directory.remove() }
    let root: String
    if let workingDirectoryRoot = tree.workingDirectoryRoot {
      root = workingDirectoryRoot
    } else {
      for packagePath in Set(jobs.map(\.packagePath)) {
        try directory.writeManifests(of: packagePath, from: tree)
      }
      root = directory.tree
    }
    let evaluator = ManifestEvaluator(
      process: process, swift: try toolchain.resolvedExecutable(), temporaryDirectory: directory.temporary)
    let label = tree.label
    return try await Concurrently.map(jobs, limit: concurrency) { job -> Result<JSONValue, PackageGraphError> in
      // Untyped catch: Swift 6.3.1 release builds miscompile typed throws inside task groups.
      do {
        return .success(try await evaluator.evaluate(job, root: root, revision: label))
      } catch let error as PackageGraphError {
        return .failure(error)
      }
    }.map { $0! }
  }
}

/// A graph of the packages whose manifests evaluated, and the errors of those that did not.
public struct PartialGraph: Sendable {
  public var graph: PackageGraph
  /// One error per failed package (its first failing environment), in package order.
  public var failures: [PackageGraphError]
  /// The repo-relative paths of the packages left out.
  public var failedPackages: [String]
}

/// One package's selected manifest, read from the tree.
struct ManifestInput: Sendable {
  var packagePath: String
  var manifestFile: String
  var manifest: [UInt8]

  init(packagePath: String, tree: TreeSnapshot, swiftVersion: [Int]) throws(PackageGraphError) {
    let names = PackageDiscovery.manifestFiles(in: packagePath, files: tree.files).map {
      String($0.split(separator: "/").last ?? "")
    }
    self.packagePath = packagePath
    manifestFile = ManifestSelection.select(fileNames: names, toolchain: swiftVersion)
    let path = RepoPath.join(packagePath, manifestFile)
    manifest = try tree.readRequired(path)
  }
}
