import PackageLoading
import PackageModel
import RippleCore
import XcodeModel

/// The Xcode side of one revision: its projects, shared schemes and the test plans they use.
public struct XcodeSnapshot: Sendable {
  public var projects: [XcodeProject] = []
  public var workspaces: [XcodeWorkspace] = []
  public var schemes: [XcodeScheme] = []
  /// By repo-relative path.
  public var testPlans: [String: XcodeTestPlan] = [:]
  /// Every project and workspace found, sorted.
  public var containers: [String] = []
  /// One error per project, scheme or test plan that could not be read.
  public var failures: [XcodeError] = []
  /// The projects left out because their `project.pbxproj` could not be read.
  public var failedProjects: [String] = []
  /// The test plans the schemes name and the xcconfig files the projects' configurations read (with their
  /// includes), with their blob ids ("" when absent): part of the cache entry, checked when it is read.
  public var planInputs: [XcodeCache.Input] = []
  /// The projects' warnings (a missing xcconfig include, a variable Ripple cannot expand), in path order.
  public var warnings: [String] { projects.flatMap(\.warnings) }
  /// Whether this came from the Xcode cache (nothing was parsed).
  public var fromCache = false
  /// The Xcode cache key of the files this was read from (nil: not read through `XcodeLoader.load`).
  public var key: String?

  public var projectsByPath: [String: XcodeProject] {
    Dictionary(projects.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
  }
}

/// Reads the Xcode projects of a tree (docs/DESIGN.md, rule 12) and adds them to its package graph.
public enum XcodeLoader {
  /// Discovers and reads every project, shared scheme and referenced test plan of `tree`. A file that
  /// cannot be read is listed in `failures`, the rest is still read.
  public static func load(
    _ tree: TreeSnapshot, excludePackages: [Glob], cache: XcodeCache = XcodeCache(directory: nil)
  ) -> XcodeSnapshot {
    load(tree, files: (try? tree.files()) ?? [], excludePackages: excludePackages, cache: cache)
  }

  /// As `load(_:excludePackages:)`, with the tree's file list already made. With a cache, a tree whose
  /// projects, workspaces, schemes and test plans all have the blob ids of a stored snapshot is not parsed.
  public static func load(
    _ tree: TreeSnapshot, files: [String], excludePackages: [Glob], cache: XcodeCache = XcodeCache(directory: nil)
  ) -> XcodeSnapshot {
    let found = XcodeDiscovery.containers(in: files, excludePackages: excludePackages)
    let listed = Set(files)
    let workspaces = found.workspaces.filter { listed.contains($0 + "/contents.xcworkspacedata") }
    let schemes = (found.projects + found.workspaces).sorted().flatMap { container in
      XcodeDiscovery.schemes(of: container, in: files).map { (container, $0) }
    }
    return load(tree, found: found, workspaces: workspaces, schemes: schemes, cache: cache)
  }

  /// As `load(_:files:…)`, found from the tree's Xcode markers (`project.pbxproj`,
  /// `contents.xcworkspacedata`) and a listing of each container's `xcshareddata/xcschemes` folder alone:
  /// the whole tree is not listed. A listing that fails is a failure of that container.
  public static func load(
    _ tree: TreeSnapshot, markers: [String], excludePackages: [Glob], cache: XcodeCache = XcodeCache(directory: nil)
  ) -> XcodeSnapshot {
    let found = XcodeDiscovery.containers(in: markers, excludePackages: excludePackages)
    let workspaces = found.workspaces.filter { markers.contains($0 + "/contents.xcworkspacedata") }
    var schemes: [(String, String)] = []
    var failures: [XcodeError] = []
    for container in (found.projects + found.workspaces).sorted() {
      do {
        var listed = try tree.files(under: container + "/xcshareddata/xcschemes")
        // No shared scheme: its users' schemes are the ones Xcode offers.
        if XcodeDiscovery.sharedSchemes(of: container, in: listed).isEmpty {
          listed = try tree.files(under: container + "/xcuserdata")
        }
        schemes += XcodeDiscovery.schemes(of: container, in: listed.sorted()).map { (container, $0) }
      } catch {
        failures.append(
          .malformedScheme(
            path: container + "/xcshareddata/xcschemes", revision: tree.label,
            reason: "the folder could not be listed: \(error)"))
      }
    }
    var snapshot = load(
      tree, found: found, workspaces: workspaces, schemes: schemes,
      cache: failures.isEmpty ? cache : XcodeCache(directory: nil))
    snapshot.failures += failures
    return snapshot
  }

  private static func load(
    _ tree: TreeSnapshot, found: (projects: [String], workspaces: [String]), workspaces: [String],
    schemes: [(String, String)], cache: XcodeCache
  ) -> XcodeSnapshot {
    let containers = (found.projects + found.workspaces).sorted()
    // Bytes read to hash them are kept for the parse below.
    var bytesRead: [String: [UInt8]] = [:]
    func blobID(_ path: String) -> String {
      if let known = try? tree.blobID(path) { return known }
      guard let bytes = (try? tree.read(path)) ?? nil else { return "" }
      bytesRead[path] = bytes
      return ManifestCache.gitBlobID(of: bytes)
    }
    let inputs =
      (found.projects.map { $0 + "/project.pbxproj" } + workspaces.map { $0 + "/contents.xcworkspacedata" }
      + schemes.map(\.1)).map { XcodeCache.Input(path: $0, blobID: blobID($0)) }
    let key = XcodeCache.key(inputs: inputs, repositoryRoot: tree.workingDirectoryRoot)
    if var cached = cache.snapshot(forKey: key, planID: blobID) {
      cached.fromCache = true
      cached.key = key
      return cached
    }

    var snapshot = XcodeSnapshot()
    snapshot.key = key
    snapshot.containers = containers
    func read(_ path: String, error makeError: (String, String) -> XcodeError) throws(XcodeError) -> [UInt8] {
      if let bytes = bytesRead.removeValue(forKey: path) { return bytes }
      return try Self.read(path, in: tree, error: makeError)
    }
    // The xcconfig files the configurations read: their blob ids join the cache entry like test plans'.
    var configFiles: Set<String> = []
    for path in found.projects {
      do throws(XcodeError) {
        let bytes = try read(path + "/project.pbxproj") {
          .malformedProject(path: $0, revision: tree.label, reason: $1)
        }
        let document = try ProjectFileReader.document(bytes, projectPath: path, revision: tree.label)
        let xcconfigs = XcconfigReader(repositoryRoot: tree.workingDirectoryRoot) { file in
          configFiles.insert(file)
          return (try? tree.read(file)) ?? nil
        }
        snapshot.projects.append(
          try ProjectResolver.resolve(document, repositoryRoot: tree.workingDirectoryRoot, xcconfigs: xcconfigs))
      } catch {
        snapshot.failures.append(error)
        snapshot.failedProjects.append(path)
      }
    }
    for path in workspaces {
      do throws(XcodeError) {
        let bytes = try read(path + "/contents.xcworkspacedata") {
          .malformedWorkspace(path: $0, revision: tree.label, reason: $1)
        }
        snapshot.workspaces.append(try WorkspaceReader.workspace(bytes, path: path, revision: tree.label))
      } catch {
        snapshot.failures.append(error)
      }
    }
    var plans: Set<String> = []
    for (container, path) in schemes {
      do throws(XcodeError) {
        let bytes = try read(path) { .malformedScheme(path: $0, revision: tree.label, reason: $1) }
        let scheme = try SchemeReader.scheme(bytes, path: path, container: container, revision: tree.label)
        snapshot.schemes.append(scheme)
        let base = XcodeScheme.referenceBase(ofContainer: container)
        for reference in scheme.testPlans where plans.insert(reference.path).inserted {
          // A plan the scheme names but the tree lacks is reported by `--format xcodebuild`, which needs it.
          guard let planBytes = (try? tree.read(reference.path)) ?? nil else { continue }
          snapshot.testPlans[reference.path] = try TestPlanFile.plan(
            planBytes, path: reference.path, base: base, revision: tree.label)
        }
      } catch {
        snapshot.failures.append(error)
      }
    }
    snapshot.planInputs = plans.union(configFiles).sorted().map { XcodeCache.Input(path: $0, blobID: blobID($0)) }
    if snapshot.failures.isEmpty { cache.store(snapshot, forKey: key) }
    return snapshot
  }

  /// `graph` with the snapshot's projects added as packages of origin `.xcodeProject`.
  ///
  /// The last merge is remembered in the process: base and head usually have the same Xcode files (one
  /// cache key) and the same package graph, and then the head side's merge is the base side's, the very
  /// same arrays, so comparing the two sides later costs nothing for what did not change.
  public static func merge(_ snapshot: XcodeSnapshot, into graph: PackageGraph, files: [String]) -> PackageGraph {
    guard !snapshot.projects.isEmpty || !snapshot.schemes.isEmpty || !snapshot.workspaces.isEmpty else { return graph }
    // The key covers projects, workspaces and schemes; the test plans are compared on their own.
    let key = snapshot.failures.isEmpty ? snapshot.key : nil
    if let key, let last = lastMerge.withLock({ $0 }), last.key == key, last.plans == snapshot.planInputs,
      last.files == files, last.graph == graph
    {
      return last.merged
    }
    let merged = XcodeGraphMapper.merge(
      snapshot.projects, workspaces: snapshot.workspaces, schemes: snapshot.schemes, testPlans: snapshot.testPlans,
      into: graph, files: Set(files))
    if let key { lastMerge.withLock { $0 = (key, snapshot.planInputs, files, graph, merged) } }
    return merged
  }

  private typealias LastMerge = (
    key: String, plans: [XcodeCache.Input], files: [String], graph: PackageGraph, merged: PackageGraph
  )
  private static let lastMerge = Locked<LastMerge?>(nil)

  /// The bytes of `path`, which must exist; `makeError` builds the error from the path and a reason.
  public static func read(
    _ path: String, in tree: TreeSnapshot, error makeError: (String, String) -> XcodeError
  ) throws(XcodeError) -> [UInt8] {
    let bytes: [UInt8]?
    do {
      bytes = try tree.read(path)
    } catch {
      throw makeError(path, "\(error)")
    }
    guard let bytes else { throw makeError(path, "the file is missing") }
    return bytes
  }
}
