import Crypto
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
  /// Graphs this loader already built or read, by graph key.
  let memo: GraphMemo
  /// Told (evaluated, total) before, during and after each batch of `dump-package` runs (a cold run):
  /// the CLI shows "evaluating 12/40 manifests" on a terminal.
  public var progress: (@Sendable (Int, Int) -> Void)?
  /// The environment an evaluation would inherit: every variable of it but the toolchain's is removed
  /// (`ManifestEnvironment.scrubbed`).
  public var inheritedEnvironment: [String: String] = ProcessInfo.processInfo.environment

  public init(
    process: ProcessClient, cache: ManifestCache, swiftExecutable: String = "swift",
    concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
    progress: (@Sendable (Int, Int) -> Void)? = nil
  ) {
    self.progress = progress
    self.process = process
    self.cache = cache
    self.swiftExecutable = swiftExecutable
    self.concurrency = max(1, concurrency)
    memo = GraphMemo()
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
    _ tree: TreeSnapshot, environments: [[String: String]], excludePackages: [Glob],
    toolchains: [ManifestToolchain] = []
  ) async throws -> PackageGraph {
    let loaded = try await loadPartialGraph(
      tree, environments: environments, excludePackages: excludePackages, toolchains: toolchains)
    if let error = PackageGraphError.combining(loaded.failures) { throw error }
    return loaded.graph
  }

  /// As `loadGraph`, but a package whose manifest does not evaluate is left out of the graph and listed
  /// with its error instead: `--fallback all` still knows every other package's tests.
  ///
  /// `toolchains` (`selection.toolchains`, docs/DESIGN.md rule 4): for each version, the manifest SwiftPM
  /// of that version reads is evaluated too (with the installed toolchain), and the graphs are unioned.
  /// Empty means the installed toolchain's choice only.
  ///
  /// The warm path (docs/ARCHITECTURE.md, section 2): discovery comes from the snapshot (cached per git
  /// tree), each manifest is keyed by its git blob id, and the whole graph is cached under the keys of
  /// every manifest plus the directory listings its target directories depend on: one file read, no
  /// document parsed, no directory of the tree listed beyond the packages' source roots.
  ///
  /// Then what each target reaches through symbolic links is attached (`LinkedSources`, from the tree's
  /// links, cached per git tree), with a warning per link not followed.
  public func loadPartialGraph(
    _ tree: TreeSnapshot, environments: [[String: String]], excludePackages: [Glob],
    toolchains: [ManifestToolchain] = []
  ) async throws -> PartialGraph {
    var loaded = try await loadEvaluatedGraph(
      tree, environments: environments, excludePackages: excludePackages, toolchains: toolchains)
    let linked = LinkedSources(links: try tree.symbolicLinks()).attach(to: loaded.graph)
    loaded.graph = linked.graph
    loaded.warnings = linked.warnings
    return loaded
  }

  /// The evaluated graph, from the graph cache or the manifests (`loadPartialGraph`).
  private func loadEvaluatedGraph(
    _ tree: TreeSnapshot, environments: [[String: String]], excludePackages: [Glob],
    toolchains: [ManifestToolchain]
  ) async throws -> PartialGraph {
    let version = try await toolchain.version()
    guard let swiftVersion = ManifestSelection.swiftVersion(fromVersionOutput: version) else {
      throw PackageGraphError.toolchainUnusable(executable: swiftExecutable, message: "no version in `\(version)`")
    }
    for listed in toolchains where ManifestSelection.compare(listed.version, swiftVersion) > 0 {
      throw PackageGraphError.toolchainNewerThanInstalled(
        origin: listed.origin, version: listed.name, installed: swiftVersion.map(String.init).joined(separator: "."))
    }
    let environments = environments.isEmpty ? [[:]] : environments
    let scrubbed = environments.map {
      ManifestEnvironment.scrubbed(
        inherited: inheritedEnvironment, effective: Self.effectiveEnvironment($0, all: environments))
    }
    let effective = scrubbed.map(\.process)
    let keyed = scrubbed.map(\.key)
    let packages = try PackageDiscovery.packages(in: tree.manifestFiles(), excludePackages: excludePackages)
      .map { try ManifestInput(found: $0, tree: tree, swiftVersion: swiftVersion, toolchains: toolchains) }
    // keys[package][variant][environment]
    let keys = packages.map { package in
      package.variants.map { variant in
        keyed.map { environment in
          ManifestCache.key(
            manifestID: variant.manifestID, manifestFile: variant.keyName, packagePath: package.packagePath,
            rootName: tree.rootName, environment: environment, toolchain: version)
        }
      }
    }
    let layout = try DirectoryLayout(packages: packages.map(\.packagePath), tree: tree)
    let graphKey = Self.graphKey(packages: packages, keys: keys, layout: layout)
    if let graph = memo.graphs.withLock({ $0[graphKey] }) ?? cache.graph(forKey: graphKey) {
      memo.graphs.withLock { $0[graphKey] = graph }
      return PartialGraph(graph: graph, failures: [], failedPackages: [])
    }

    // One job per package, manifest variant and environment; cached documents first, the rest evaluated
    // (once per key: versions reading the same manifest share it).
    var documents: [String: JSONValue] = [:]
    var misses: [(package: Int, job: ManifestEvaluator.Job, key: String)] = []
    var missed: Set<String> = []
    for (p, package) in packages.enumerated() {
      for (v, variant) in package.variants.enumerated() {
        for (e, environment) in environments.enumerated() {
          let key = keys[p][v][e]
          if documents[key] != nil || missed.contains(key) { continue }
          if let cached = cache.entry(forKey: key), let document = try? JSONValue.parse(cached) {
            documents[key] = document
          } else {
            let job = ManifestEvaluator.Job(
              packagePath: package.packagePath, environment: effective[e], declaredEnvironment: environment,
              manifestAlone: variant.alone)
            misses.append((p, job, key))
            missed.insert(key)
          }
        }
      }
    }

    var failures: [Int: PackageGraphError] = [:]
    if !misses.isEmpty {
      let manifestPaths = Dictionary(
        packages.map { ($0.packagePath, $0.manifestPaths) }, uniquingKeysWith: { a, _ in a })
      let evaluated = try await evaluate(misses.map(\.job), in: tree, manifestPaths: manifestPaths)
      for (miss, outcome) in zip(misses, evaluated) {
        switch outcome {
        case .success(let document):
          documents[miss.key] = document
          cache.store(Array(document.canonicalText.utf8), forKey: miss.key)
        case .failure(let error):
          if failures[miss.package] == nil { failures[miss.package] = error }
        }
      }
    }

    var evaluatedPackages: [Package] = []
    for (p, package) in packages.enumerated() where failures[p] == nil {
      let perVariant = try package.variants.indices.map { v in
        let evaluations = try keys[p][v].map { key in
          do {
            return try ManifestMapper.package(
              from: documents[key]!, path: package.packagePath, manifestFile: package.manifestFile,
              isDirectory: layout.contains)
          } catch let error as ManifestMapper.FormatError {
            throw PackageGraphError.unexpectedManifestOutput(
              packagePath: package.packagePath, revision: tree.label, reason: error.reason)
          }
        }
        return EnvironmentUnion.union(evaluations)
      }
      if toolchains.isEmpty {
        evaluatedPackages.append(perVariant[0])
      } else {
        let labels = package.variants.map { (manifest: $0.fileName, version: $0.versionName) }
        evaluatedPackages.append(EnvironmentUnion.union(perVariant, toolchains: labels))
      }
    }
    let graph = PackageGraph(packages: evaluatedPackages)
    // A target whose directory needed a listing outside the source roots is not covered by the key.
    if failures.isEmpty, !layout.listedOutsideRoots {
      cache.storeGraph(graph, forKey: graphKey)
      memo.graphs.withLock { $0[graphKey] = graph }
    }
    return PartialGraph(
      graph: graph, failures: failures.sorted { $0.key < $1.key }.map(\.value),
      failedPackages: failures.keys.sorted().map { packages[$0].packagePath })
  }

  /// The repo-relative directories of the packages `loadGraph` would evaluate, without evaluating them;
  /// empty when the tree cannot be read.
  public static func packagePaths(in tree: TreeSnapshot, excludePackages: [Glob]) -> [String] {
    let manifests = (try? tree.manifestFiles()) ?? []
    return PackageDiscovery.packages(in: manifests, excludePackages: excludePackages).map(\.directory)
  }

  /// The key of one side's graph: every package's path, manifest and manifest keys (which hold the
  /// toolchain, the environments and the checkout's name), and the listings of its source roots.
  static func graphKey(packages: [ManifestInput], keys: [[[String]]], layout: DirectoryLayout) -> String {
    // Fields NUL-terminated into one buffer, hashed once.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(packages.count * 4096)
    func add(_ field: String) {
      bytes.append(contentsOf: field.utf8)
      bytes.append(0)
    }
    add(ManifestCache.graphFormat)
    for (package, packageKeys) in zip(packages, keys) {
      add("package")
      add(package.packagePath)
      add(package.manifestFile)
      for (variant, variantKeys) in zip(package.variants, packageKeys) {
        add("variant \(variant.fileName) \(variant.versionName)")
        for key in variantKeys { add(key) }
      }
      for root in DirectoryLayout.roots {
        let path = DirectoryLayout.path(package.packagePath, root)
        add(path)
        if let names = layout.listings[path] ?? nil {
          add(String(names.count))
          for name in names { add(name) }
        } else {
          add("absent")
        }
      }
    }
    return ManifestCache.hex(SHA256.hash(data: bytes))
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
    _ jobs: [ManifestEvaluator.Job], in tree: TreeSnapshot, manifestPaths: [String: [String]]
  ) async throws -> [Result<JSONValue, PackageGraphError>] {
    let directory = try EvaluationDirectory(rootName: tree.rootName)
    defer { directory.remove() }
    let root: String
    if let workingDirectoryRoot = tree.workingDirectoryRoot {
      root = workingDirectoryRoot
    } else {
      for packagePath in Set(jobs.filter { $0.manifestAlone == nil }.map(\.packagePath)) {
        try directory.writeManifests(manifestPaths[packagePath] ?? [], from: tree)
      }
      root = directory.tree
    }
    // A manifest another Swift version reads is evaluated alone, as the `Package.swift` of its own tree.
    var roots: [Int: String] = [:]
    for (index, job) in jobs.enumerated() {
      if let alone = job.manifestAlone {
        roots[index] = try directory.writeAlone(alone, packagePath: job.packagePath, variant: index, from: tree)
      }
    }
    let evaluator = ManifestEvaluator(
      process: process, swift: try toolchain.resolvedExecutable(), temporaryDirectory: directory.temporary)
    let label = tree.label
    var done = 0
    progress?(0, jobs.count)
    defer { progress?(jobs.count, jobs.count) }
    let indexed = jobs.enumerated().map { (job: $0.element, root: roots[$0.offset] ?? root) }
    return try await Concurrently.map(
      indexed, limit: concurrency,
      { item -> Result<JSONValue, PackageGraphError> in
        // Untyped catch: Swift 6.3.1 release builds miscompile typed throws inside task groups.
        do {
          return .success(try await evaluator.evaluate(item.job, root: item.root, revision: label))
        } catch let error as PackageGraphError {
          return .failure(error)
        }
      },
      onResult: { _, _ in
        done += 1
        progress?(done, jobs.count)
        return true
      }
    ).map { $0! }
  }
}

/// A graph of the packages whose manifests evaluated, and the errors of those that did not.
public struct PartialGraph: Sendable {
  public var graph: PackageGraph
  /// One error per failed package (its first failing environment), in package order.
  public var failures: [PackageGraphError]
  /// The repo-relative paths of the packages left out.
  public var failedPackages: [String]
  /// Symbolic links in targets that are not followed (`LinkedSources`).
  public var warnings: [String] = []
}

/// One package's manifests: the one each Swift version reads, keyed by git's blob ids (read and hashed
/// only when git has not).
struct ManifestInput: Sendable {
  /// One manifest evaluation the graph needs: the installed toolchain's, or one per listed version.
  struct Variant: Sendable {
    /// The file name that version of SwiftPM reads.
    var fileName: String
    /// The listed version (`6.0`), or the installed one when no versions are listed.
    var versionName: String
    /// The repo-relative manifest to evaluate alone (as the `Package.swift` of a scratch tree), nil to let
    /// the installed SwiftPM choose among the package's manifests as it does in the repository.
    var alone: String?
    /// The blob id of what the evaluation reads: every manifest of the directory, or the file alone.
    var manifestID: String
    /// Part of the cache key: which kind of evaluation this is.
    var keyName: String { alone == nil ? fileName : "alone " + fileName }
  }

  var packagePath: String
  /// The manifest the installed toolchain reads.
  var manifestFile: String
  /// Every manifest of the package (repo-relative), for a scratch evaluation.
  var manifestPaths: [String]
  /// One per listed version, in list order; the installed toolchain's alone when none are listed.
  var variants: [Variant]

  init(
    found: PackageDiscovery.Found, tree: TreeSnapshot, swiftVersion: [Int], toolchains: [ManifestToolchain]
  ) throws(PackageGraphError) {
    packagePath = found.directory
    manifestPaths = found.manifests.map(\.path)
    let directory = found.directory
    let names = found.manifests.map { String(PackageDiscovery.name(of: $0.path)) }
    var blobIDs: [String: String] = [:]
    func blobID(_ name: String) throws(PackageGraphError) -> String {
      if let known = blobIDs[name] { return known }
      let path = RepoPath.join(directory, name)
      let id: String
      if let known = found.manifests.first(where: { $0.path == path })?.blobID {
        id = known
      } else {
        id = ManifestCache.gitBlobID(of: try tree.readRequired(path))
      }
      blobIDs[name] = id
      return id
    }
    var declared: [String: ManifestSelection.DeclaredToolsVersion] = [:]
    func toolsVersion(_ name: String) throws(PackageGraphError) -> ManifestSelection.DeclaredToolsVersion {
      if let known = declared[name] { return known }
      let value = ManifestSelection.declaredToolsVersion(in: try tree.readRequired(RepoPath.join(directory, name)))
      declared[name] = value
      return value
    }
    func choose(_ version: [Int]) throws(PackageGraphError) -> ManifestSelection.Choice {
      do {
        return try ManifestSelection.choose(fileNames: names, toolchain: version, toolsVersion: toolsVersion)
      } catch let error as PackageGraphError {
        throw error
      } catch {
        throw .unreadableFile(path: directory, revision: tree.label, reason: "\(error)")
      }
    }
    let installed = try choose(swiftVersion).fileName
    manifestFile = installed
    // What the installed SwiftPM reads in place depends on every manifest of the directory.
    var directoryID = ""
    for name in names.sorted() { directoryID += name + " " + (try blobID(name)) + "\n" }
    let inPlaceID =
      names == ["Package.swift"]
      ? try blobID("Package.swift")
      : ManifestCache.hex(
        SHA256.hash(data: Array(directoryID.utf8)))
    guard !toolchains.isEmpty else {
      variants = [
        Variant(
          fileName: installed, versionName: ManifestSelection.text(of: swiftVersion), alone: nil, manifestID: inPlaceID)
      ]
      return
    }
    var variants: [Variant] = []
    for listed in toolchains {
      let choice = try choose(listed.version)
      let file = choice.fileName
      if case .file = choice, case .version(let tools) = try toolsVersion(file),
        ManifestSelection.compare(tools, listed.version) > 0
      {
        throw .toolchainOlderThanManifest(
          origin: listed.origin, version: listed.name, packagePath: directory, revision: tree.label,
          manifest: RepoPath.join(directory, file), toolsVersion: ManifestSelection.text(of: tools))
      }
      if file == installed {
        variants.append(Variant(fileName: file, versionName: listed.name, alone: nil, manifestID: inPlaceID))
      } else {
        variants.append(
          Variant(
            fileName: file, versionName: listed.name, alone: RepoPath.join(directory, file),
            manifestID: try blobID(file)))
      }
    }
    self.variants = variants
  }
}

/// The `memo` of a `GraphLoader`: graphs already loaded by this process (base and head often share one).
final class GraphMemo: Sendable {
  let graphs = Locked<[String: PackageGraph]>([:])
}
