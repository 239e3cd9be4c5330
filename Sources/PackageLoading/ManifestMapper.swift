import PackageModel
import RippleCore

/// Turns one normalised `dump-package` document into a `Package`, resolving target directories
/// against the tree.
enum ManifestMapper {
  /// Package-level fields that are not part of `packageFingerprint`: they are compared through
  /// targets, products and dependencies, or do not affect what gets built.
  static let fieldsOutsidePackageFingerprint: Set<String> = [
    "targets", "products", "dependencies", "name", "packageKind",
  ]

  struct FormatError: Error {
    var reason: String
  }

  static func package(
    from manifest: JSONValue, path: String, manifestFile: String, directories: Set<String>
  ) throws -> Package {
    try package(from: manifest, path: path, manifestFile: manifestFile, isDirectory: directories.contains)
  }

  static func package(
    from manifest: JSONValue, path: String, manifestFile: String, isDirectory directories: (String) -> Bool
  ) throws -> Package {
    // Sets printed in iteration order would give another fingerprint per evaluation.
    let manifest = manifest.sortingSets()
    guard let fields = manifest.object else { throw FormatError(reason: "the document is not an object") }
    guard let name = fields["name"]?.string else { throw FormatError(reason: "the package has no name") }
    let packageLevel = fields.filter { !fieldsOutsidePackageFingerprint.contains($0.key) }
    let products = try (fields["products"]?.array ?? []).map(product)
    let dependencies = try (fields["dependencies"]?.array ?? []).map(dependency)
    let toolsVersion = manifest["toolsVersion"]?["_version"]?.string.map(versionNumbers) ?? []

    let entries = fields["targets"]?.array ?? []
    var kinds: [TargetKind] = []
    for entry in entries {
      guard let type = entry["type"]?.string else { throw FormatError(reason: "a target has no type") }
      kinds.append(TargetKind(rawValue: type) ?? .library)
    }
    let groupSizes = Dictionary(grouping: kinds, by: TargetDirectoryResolver.sourceRootGroup).mapValues(\.count)
    let targetNames = Set(entries.compactMap { $0["name"]?.string })
    var targets: [Target] = []
    for (entry, kind) in zip(entries, kinds) {
      guard let targetName = entry["name"]?.string else { throw FormatError(reason: "a target has no name") }
      let declaredPath = entry["path"]?.string
      let directory = TargetDirectoryResolver.directory(
        name: targetName, kind: kind, declaredPath: declaredPath, packagePath: path,
        aloneOfItsKind: groupSizes[TargetDirectoryResolver.sourceRootGroup(of: kind)] == 1,
        toolsVersion: toolsVersion, isDirectory: directories)
      targets.append(
        Target(
          name: targetName, kind: kind, declaredPath: declaredPath, directory: directory,
          dependencies: try (entry["dependencies"]?.array ?? []).map(targetDependency),
          pluginUsages: try (entry["pluginUsages"]?.array ?? []).map {
            try pluginUsage($0, targetNames: targetNames, products: products)
          },
          fingerprint: entry.canonicalText))
    }
    return Package(
      path: path, name: name, manifestFile: manifestFile,
      packageFingerprint: JSONValue.object(packageLevel).canonicalText, targets: targets, products: products,
      dependencies: dependencies)
  }

  /// `{"byName": [name, condition]}`, `{"target": [name, condition]}`,
  /// `{"product": [name, package, moduleAliases, condition]}`. Conditions stay in the fingerprint only.
  static func targetDependency(_ value: JSONValue) throws -> TargetDependency {
    guard let (kind, values) = value.enumCase, let name = values.first?.string else {
      throw FormatError(reason: "unknown target dependency \(value.canonicalText)")
    }
    switch kind {
    case "byName": return .byName(name)
    case "target": return .target(name)
    case "product": return .product(name, package: values.dropFirst().first?.string)
    default: throw FormatError(reason: "unknown target dependency kind `\(kind)`")
    }
  }

  /// `{"plugin": [name, package]}`. Without a package the plugin is a target of the same package, or
  /// a plugin product of the same package (SwiftPM accepts both); the latter maps to its target.
  static func pluginUsage(
    _ value: JSONValue, targetNames: Set<String>, products: [Product]
  ) throws -> TargetDependency {
    guard let (_, values) = value.enumCase, let name = values.first?.string else {
      throw FormatError(reason: "unknown plugin usage \(value.canonicalText)")
    }
    if let package = values.dropFirst().first?.string { return .product(name, package: package) }
    if !targetNames.contains(name), let product = products.first(where: { $0.name == name }),
      let target = product.targets.first
    {
      return .target(target)
    }
    return .target(name)
  }

  /// `{"name": …, "type": {"library": ["automatic"]}, "targets": […]}`.
  static func product(_ value: JSONValue) throws -> Product {
    guard let name = value["name"]?.string else { throw FormatError(reason: "a product has no name") }
    let kind = value["type"]?.enumCase?.name ?? value["type"]?.string ?? "library"
    return Product(name: name, kind: kind, targets: (value["targets"]?.array ?? []).compactMap(\.string))
  }

  /// `{"fileSystem": [entry]}`, `{"sourceControl": [entry]}` or `{"registry": [entry]}`.
  static func dependency(_ value: JSONValue) throws -> PackageDependency {
    guard let (kind, values) = value.enumCase, let entry = values.first, let identity = entry["identity"]?.string
    else { throw FormatError(reason: "unknown package dependency \(value.canonicalText)") }
    let location: PackageDependency.Location
    switch kind {
    case "fileSystem":
      let path = entry["path"]?.string
      location = .local(path: path.flatMap { $0.hasPrefix("/") ? nil : $0 })
    case "sourceControl":
      let place = entry["location"]?.enumCase
      location = .remote(place?.values.first?["urlString"]?.string ?? place?.values.first?.string ?? identity)
    case "registry":
      location = .remote(identity)
    default:
      throw FormatError(reason: "unknown package dependency kind `\(kind)`")
    }
    return PackageDependency(
      identity: identity, name: entry["nameForTargetDependencyResolutionOnly"]?.string, location: location,
      fingerprint: value.canonicalText)
  }

  static func versionNumbers(_ text: String) -> [Int] {
    text.split(separator: ".").compactMap { Int($0) }
  }
}
