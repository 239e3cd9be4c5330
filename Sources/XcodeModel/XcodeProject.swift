import PackageModel

/// One Xcode project, resolved: its native targets with the files they own, their dependencies, and the
/// Swift packages it references (docs/DESIGN.md, rule 12). Paths are repo-relative.
public struct XcodeProject: Sendable, Hashable {
  /// The project bundle, `App/MyApp.xcodeproj`: the package path of its targets in the graph.
  public var path: String
  /// The bundle's name without `.xcodeproj`.
  public var name: String
  /// The folder build settings and `SOURCE_ROOT` paths are relative to (the bundle's folder by default).
  public var sourceRoot: String
  /// Canonical text of the project-wide settings: when it differs, every target of the project changed.
  public var fingerprint: String
  public var targets: [XcodeTarget]
  public var packageReferences: [XcodePackageReference]
  /// Every file reference's location; those holding a `Package.swift` are local packages (Xcode's older
  /// way of adding one: a folder reference).
  public var fileReferences: [String]
  /// What could not be read or resolved but left the project usable (a missing xcconfig include, a
  /// variable Ripple cannot expand), each once: shown as warnings.
  public var warnings: [String] = []

  public init(
    path: String, name: String, sourceRoot: String, fingerprint: String, targets: [XcodeTarget],
    packageReferences: [XcodePackageReference], fileReferences: [String]
  ) {
    self.path = path
    self.name = name
    self.sourceRoot = sourceRoot
    self.fingerprint = fingerprint
    self.targets = targets
    self.packageReferences = packageReferences
    self.fileReferences = fileReferences
  }

  public func target(id: String) -> XcodeTarget? { targets.first { $0.id == id } }
  public func target(named name: String) -> XcodeTarget? { targets.first { $0.name == name } }
}

/// A native target of a project (`PBXNativeTarget`).
public struct XcodeTarget: Sendable, Hashable {
  /// The object id (schemes and test plans refer to targets by it).
  public var id: String
  public var name: String
  public var productType: String
  public var kind: TargetKind
  /// Files and folders it owns: build-phase files through the group tree, synchronised folders, Info.plist,
  /// entitlements, xcconfig files, script inputs.
  public var paths: [String]
  /// Synchronised-folder files that are not members (membership exceptions).
  public var excludedPaths: [String]
  /// Targets of the same project it depends on: target dependencies, linked products of other targets,
  /// and the host app of a test bundle.
  public var dependencies: [String]
  /// The app a test bundle runs in (`TEST_HOST`, `TEST_TARGET_NAME`, `TestTargetID`).
  public var host: String?
  public var productDependencies: [XcodeProductDependency]
  /// Canonical text of the target's entry: settings, phases and their files, dependencies.
  public var fingerprint: String
  /// Targets of other projects it depends on (a `PBXContainerItemProxy` whose `containerPortal` is
  /// another `.xcodeproj` of the repository, as in a workspace).
  public var foreignDependencies: [XcodeForeignDependency] = []
  /// File names of products it links or embeds (Frameworks and Copy Files phases) that no target of its
  /// own project is known to build by reference: `Library.framework`. Matched against the products of
  /// the workspace's targets when the graph is put together (Xcode's implicit dependencies).
  public var linkedProducts: [String] = []
  /// Its product's file name (`Library.framework`), from the target's `productReference`.
  public var productFile: String?
  /// Products its `OTHER_LDFLAGS` names in any configuration (`-framework Library` → `Library.framework`,
  /// `-lCore` → `libCore.a`, `libCore.dylib`): matched like `linkedProducts`, also Xcode's implicit
  /// dependencies.
  public var linkerFlagProducts: [LinkerFlags.Use] = []

  public init(
    id: String, name: String, productType: String, kind: TargetKind, paths: [String], excludedPaths: [String],
    dependencies: [String], host: String?, productDependencies: [XcodeProductDependency], fingerprint: String
  ) {
    self.id = id
    self.name = name
    self.productType = productType
    self.kind = kind
    self.paths = paths
    self.excludedPaths = excludedPaths
    self.dependencies = dependencies
    self.host = host
    self.productDependencies = productDependencies
    self.fingerprint = fingerprint
  }

  /// The kind of a `com.apple.product-type.…` (docs/DESIGN.md, rule 12).
  public static func kind(ofProductType type: String) -> TargetKind {
    let name = type.hasPrefix("com.apple.product-type.") ? String(type.dropFirst(23)) : type
    switch name {
    case "bundle.unit-test": return .unitTest
    case "bundle.ui-testing": return .uiTest
    case "framework", "framework.static", "xcframework": return .framework
    case "library.static", "library.dynamic": return .library
    case "tool": return .executable
    default:
      if name.hasPrefix("application") { return .app }
      if name.contains("extension") { return .appExtension }
      return .bundle
    }
  }
}

/// An `XCSwiftPackageProductDependency`: a product of a Swift package a target uses.
public struct XcodeProductDependency: Sendable, Hashable {
  public var name: String
  /// The id of the package reference, nil when the product comes from a local package added as a folder.
  public var packageReference: String?

  public init(name: String, packageReference: String?) {
    self.name = name
    self.packageReference = packageReference
  }
}

/// An `XCLocalSwiftPackageReference` or `XCRemoteSwiftPackageReference`.
public struct XcodePackageReference: Sendable, Hashable {
  public var id: String
  /// Local: the repo-relative package folder (nil outside the repository); remote: the URL.
  public var location: PackageDependency.Location
  /// SwiftPM's identity: the location's last path component, lowercased, without `.git`.
  public var identity: String
  /// Canonical text of the requirement (remote) or path (local).
  public var fingerprint: String

  public init(id: String, location: PackageDependency.Location, identity: String, fingerprint: String) {
    self.id = id
    self.location = location
    self.identity = identity
    self.fingerprint = fingerprint
  }

  /// The identity of a URL or path: its last path component, without `.git`, lowercased.
  public static func identity(ofLocation location: String) -> String {
    var last = location.split(separator: "/").last.map(String.init) ?? location
    if last.hasSuffix(".git") { last.removeLast(4) }
    return last.lowercased()
  }
}

/// A target of another project: its repo-relative `.xcodeproj` and the target's name (`remoteInfo`).
public struct XcodeForeignDependency: Sendable, Hashable, Comparable {
  public var project: String
  public var target: String

  public init(project: String, target: String) {
    self.project = project
    self.target = target
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.project, lhs.target) < (rhs.project, rhs.target) }
}

/// An `.xcworkspace`: the projects and packages it holds (`contents.xcworkspacedata`).
public struct XcodeWorkspace: Sendable, Hashable {
  /// The repo-relative bundle (`App.xcworkspace`).
  public var path: String
  /// Repo-relative locations of its file references (projects, package folders).
  public var references: [String]

  public init(path: String, references: [String]) {
    self.path = path
    self.references = references
  }
}
