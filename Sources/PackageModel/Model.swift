import RippleCore

/// Every package of a repository at one revision, as SwiftPM evaluated their manifests.
///
/// Paths are repo-relative with `/` separators; the root package is ".". Values only: no I/O here.
public struct PackageGraph: Sendable, Codable, Hashable {
  /// Sorted by `path`.
  public var packages: [Package]

  public init(packages: [Package]) {
    self.packages = packages.sorted { $0.path < $1.path }
  }

  public func package(at path: String) -> Package? {
    packages.first { $0.path == path }
  }

  /// The innermost package whose directory holds `path` (a file or directory), if any. Xcode projects and
  /// workspaces are not considered: their targets own files by `ownedPaths`, not by directory.
  public func owningPackage(of path: String) -> Package? {
    var best: Package?
    for package in packages where package.origin == nil && RepoPath.isInside(path, directory: package.path) {
      if best == nil || package.path.count > best!.path.count || best!.path == "." { best = package }
    }
    return best
  }
}

/// Where a node of the graph comes from.
public enum PackageOrigin: String, Sendable, Codable, Hashable {
  /// A directory holding a `Package.swift`.
  case swiftPackage
  /// An `.xcodeproj` (docs/DESIGN.md, rule 12): `path` is the project bundle, `manifestFile` its `project.pbxproj`.
  case xcodeProject
  /// An `.xcworkspace`: no targets, a local dependency on each project it holds, so that its
  /// `Package.resolved` covers them (rule 12).
  case xcodeWorkspace
}

/// One package: a directory holding a `Package.swift`, or an Xcode project (`origin`).
public struct Package: Sendable, Codable, Hashable {
  /// Repo-relative directory, "." for the root.
  public var path: String
  /// The `name:` of the manifest.
  public var name: String
  /// The manifest file SwiftPM selected (`Package.swift` or a versioned `Package@swift-X.swift`).
  public var manifestFile: String
  /// Canonical text of the package-level fields (tools version, platforms, language versions,
  /// settings, …). When it differs between two revisions, every target of the package changed.
  public var packageFingerprint: String
  public var targets: [Target]
  public var products: [Product]
  public var dependencies: [PackageDependency]
  /// Nil for a SwiftPM package (so its JSON stays as it was); `.xcodeProject` for an Xcode project.
  public var origin: PackageOrigin?

  public init(
    path: String, name: String, manifestFile: String = "Package.swift", packageFingerprint: String,
    targets: [Target], products: [Product] = [], dependencies: [PackageDependency] = [],
    origin: PackageOrigin? = nil
  ) {
    self.path = path
    self.name = name
    self.manifestFile = manifestFile
    self.packageFingerprint = packageFingerprint
    self.targets = targets
    self.products = products
    self.dependencies = dependencies
    self.origin = origin
  }

  public var isXcodeProject: Bool { origin == .xcodeProject }

  public func target(named name: String) -> Target? { targets.first { $0.name == name } }
  public func product(named name: String) -> Product? { products.first { $0.name == name } }

  /// The dependency a `.product(name:package:)` refers to: by identity or declared name, case-insensitively.
  public func dependency(named packageName: String) -> PackageDependency? {
    let key = packageName.lowercased()
    return dependencies.first { $0.identity == key || $0.name?.lowercased() == key }
  }
}

public enum TargetKind: String, Sendable, Codable, Hashable {
  case library = "regular"
  case executable
  case test
  case plugin
  case macro
  case system
  case binary
  // Xcode native targets (docs/DESIGN.md, rule 12), by product type.
  case app
  case appExtension
  case framework
  case unitTest
  case uiTest
  /// Any other Xcode product type (bundles, XPC services, …).
  case bundle
  /// An Xcode aggregate target (`PBXAggregateTarget`) or legacy target running an external build tool
  /// (`PBXLegacyTarget`): no product of its own.
  case aggregate

  public var isTest: Bool { self == .test || self == .unitTest || self == .uiTest }
}

/// One target of a package, with its directory resolved against the tree of the revision.
public struct Target: Sendable, Codable, Hashable {
  public var name: String
  public var kind: TargetKind
  /// `path:` as written in the manifest, if any.
  public var declaredPath: String?
  /// Repo-relative directory that owns the target's files (sources, excludes, resources).
  public var directory: String
  public var dependencies: [TargetDependency]
  /// Plugins the target uses (`plugins: [...]`): an edge like a dependency.
  public var pluginUsages: [TargetDependency]
  /// Canonical text of the evaluated entry. When it differs between revisions, the target changed.
  public var fingerprint: String
  /// The indices of the manifest environments the target exists in, when it is missing from some (a
  /// target the manifest adds only when a variable is set); nil: every environment.
  public var environments: [Int]?
  /// Files and folders the target owns besides `directory` (repo-relative; a folder owns what it holds):
  /// an Xcode target's build files, synchronised folders, Info.plist and entitlements, and for any test
  /// target the shared schemes and test plans that test it. Nil for a plain SwiftPM target.
  public var ownedPaths: [String]?
  /// Paths inside `ownedPaths` folders that are not the target's (synchronised-folder exceptions).
  public var excludedPaths: [String]?
  /// For dependencies no manifest spells out (an Xcode target linking another target's product, found as
  /// Xcode's "Find Implicit Dependencies" finds it): the dependency (`package:name`) → why it is one, the
  /// sentence a selection through that edge gives. Nil for a plain SwiftPM target.
  public var implicitEdges: [String: String]?
  /// Files and folders the target reaches through symbolic links in its directory (SwiftPM follows them
  /// when it lists the sources; docs/DESIGN.md, rule 3). Nil when none. Derived from the tree's links each
  /// time a graph is loaded, not kept in the graph cache.
  public var linkedPaths: [LinkedPath]?

  public init(
    name: String, kind: TargetKind, declaredPath: String? = nil, directory: String,
    dependencies: [TargetDependency] = [], pluginUsages: [TargetDependency] = [], fingerprint: String = "",
    environments: [Int]? = nil, ownedPaths: [String]? = nil, excludedPaths: [String]? = nil,
    linkedPaths: [LinkedPath]? = nil
  ) {
    self.name = name
    self.kind = kind
    self.declaredPath = declaredPath
    self.directory = directory
    self.dependencies = dependencies
    self.pluginUsages = pluginUsages
    self.fingerprint = fingerprint
    self.environments = environments
    self.ownedPaths = ownedPaths
    self.excludedPaths = excludedPaths
    self.linkedPaths = linkedPaths
  }

  /// The link through which the target reaches `path`, when it does (the first, in link order).
  public func link(reaching path: String) -> String? {
    linkedPaths?.first { RepoPath.isInside(path, directory: $0.path) }?.link
  }

  /// Whether `path` is one of `ownedPaths` or inside one, and not excluded.
  public func ownsListed(_ path: String) -> Bool {
    guard let ownedPaths, ownedPaths.contains(where: { RepoPath.isInside(path, directory: $0) }) else { return false }
    return !(excludedPaths ?? []).contains { RepoPath.isInside(path, directory: $0) }
  }

  /// Whether the manifest declares the target when evaluated in environment `index`.
  public func exists(inEnvironment index: Int) -> Bool { environments?.contains(index) ?? true }
}

/// A file or folder a target reaches through a symbolic link: `Sources/PluginA/Shared -> ../../Shared` makes
/// `Shared` (and everything in it) the target's.
public struct LinkedPath: Sendable, Codable, Hashable {
  /// Repo-relative path the link leads to, every link along it followed.
  public var path: String
  /// Repo-relative path of the link: in the target's directory, or in a folder reached through another link.
  public var link: String

  public init(path: String, link: String) {
    self.path = path
    self.link = link
  }
}

/// A target's dependency as the manifest declares it.
public enum TargetDependency: Sendable, Codable, Hashable {
  /// `.target(name:)`: a target of the same package.
  case target(String)
  /// `.product(name:package:)`: a product of a package dependency (`package` nil when omitted).
  case product(String, package: String?)
  /// A bare string: a target of the same package, else a product of any dependency.
  case byName(String)

  public var name: String {
    switch self {
    case .target(let n), .product(let n, _), .byName(let n): n
    }
  }
}

public struct Product: Sendable, Codable, Hashable {
  public var name: String
  /// library, executable, plugin, macro, …
  public var kind: String
  public var targets: [String]

  public init(name: String, kind: String = "library", targets: [String]) {
    self.name = name
    self.kind = kind
    self.targets = targets
  }
}

/// A `dependencies:` entry of a package.
public struct PackageDependency: Sendable, Codable, Hashable {
  public enum Location: Sendable, Codable, Hashable {
    /// `.package(path:)`: the repo-relative directory of the other package (nil when outside the repo).
    case local(path: String?)
    /// `.package(url:…)`, registry ids included.
    case remote(String)
  }

  /// SwiftPM's identity: lowercased last path component of the location, without `.git`.
  public var identity: String
  /// Explicit `name:` of the dependency, for old manifests that refer to products by it.
  public var name: String?
  public var location: Location
  /// Canonical text of the requirement and other fields; a difference means the dependency changed.
  public var fingerprint: String

  public init(identity: String, name: String? = nil, location: Location, fingerprint: String = "") {
    self.identity = identity
    self.name = name
    self.location = location
    self.fingerprint = fingerprint
  }
}

/// The pins of one `Package.resolved`: identity → canonical text of the pinned state.
public struct ResolvedPins: Sendable, Codable, Hashable {
  public var pins: [String: String]
  public init(pins: [String: String]) { self.pins = pins }
}
