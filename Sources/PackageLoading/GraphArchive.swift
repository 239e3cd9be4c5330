import PackageModel

/// A compact binary form of a `PackageGraph` for the graph cache: length-prefixed strings and counts.
///
/// A warm run decodes one of these instead of parsing and mapping every manifest document; JSON and
/// `Codable` cost several times more for 4,000 targets. The cache entry's checksum guards the bytes;
/// `decode` still checks every length and returns nil on anything unexpected.
enum GraphArchive {
  static func encode(_ graph: PackageGraph) -> [UInt8] {
    var writer = ArchiveWriter()
    writer.count(graph.packages.count)
    for package in graph.packages {
      writer.string(package.path)
      writer.string(package.name)
      writer.string(package.manifestFile)
      writer.string(package.packageFingerprint)
      writer.count(package.targets.count)
      for target in package.targets {
        writer.string(target.name)
        writer.string(target.kind.rawValue)
        writer.optional(target.declaredPath)
        writer.string(target.directory)
        writer.dependencies(target.dependencies)
        writer.dependencies(target.pluginUsages)
        writer.string(target.fingerprint)
        writer.indices(target.environments)
        writer.optionalStrings(target.ownedPaths)
        writer.optionalStrings(target.excludedPaths)
      }
      writer.count(package.products.count)
      for product in package.products {
        writer.string(product.name)
        writer.string(product.kind)
        writer.strings(product.targets)
      }
      writer.count(package.dependencies.count)
      for dependency in package.dependencies {
        writer.string(dependency.identity)
        writer.optional(dependency.name)
        switch dependency.location {
        case .local(let path):
          writer.count(0)
          writer.optional(path)
        case .remote(let url):
          writer.count(1)
          writer.string(url)
        }
        writer.string(dependency.fingerprint)
      }
    }
    return writer.bytes
  }

  static func decode(_ bytes: ArraySlice<UInt8>) -> PackageGraph? {
    var reader = ArchiveReader(bytes: bytes)
    do {
      var packages: [Package] = []
      for _ in 0..<(try reader.count()) {
        let path = try reader.string()
        let name = try reader.string()
        let manifestFile = try reader.string()
        let fingerprint = try reader.string()
        var targets: [Target] = []
        for _ in 0..<(try reader.count()) {
          let targetName = try reader.string()
          guard let kind = TargetKind(rawValue: try reader.string()) else { return nil }
          targets.append(
            Target(
              name: targetName, kind: kind, declaredPath: try reader.optional(), directory: try reader.string(),
              dependencies: try reader.dependencies(), pluginUsages: try reader.dependencies(),
              fingerprint: try reader.string(), environments: try reader.indices(),
              ownedPaths: try reader.optionalStrings(), excludedPaths: try reader.optionalStrings()))
        }
        var products: [Product] = []
        for _ in 0..<(try reader.count()) {
          products.append(Product(name: try reader.string(), kind: try reader.string(), targets: try reader.strings()))
        }
        var dependencies: [PackageDependency] = []
        for _ in 0..<(try reader.count()) {
          let identity = try reader.string()
          let dependencyName = try reader.optional()
          let location: PackageDependency.Location
          switch try reader.count() {
          case 0: location = .local(path: try reader.optional())
          case 1: location = .remote(try reader.string())
          default: return nil
          }
          dependencies.append(
            PackageDependency(
              identity: identity, name: dependencyName, location: location, fingerprint: try reader.string()))
        }
        packages.append(
          Package(
            path: path, name: name, manifestFile: manifestFile, packageFingerprint: fingerprint, targets: targets,
            products: products, dependencies: dependencies))
      }
      guard reader.isAtEnd else { return nil }
      return PackageGraph(packages: packages)
    } catch {
      return nil
    }
  }
}

extension ArchiveWriter {
  fileprivate mutating func dependencies(_ dependencies: [TargetDependency]) {
    count(dependencies.count)
    for dependency in dependencies {
      switch dependency {
      case .target(let name):
        count(0)
        string(name)
      case .product(let name, let package):
        count(1)
        string(name)
        optional(package)
      case .byName(let name):
        count(2)
        string(name)
      }
    }
  }
}

extension ArchiveReader {
  fileprivate mutating func dependencies() throws(Truncated) -> [TargetDependency] {
    let n = try itemCount()
    var result: [TargetDependency] = []
    for _ in 0..<n {
      switch try count() {
      case 0: result.append(.target(try string()))
      case 1: result.append(.product(try string(), package: try optional()))
      case 2: result.append(.byName(try string()))
      default: throw Truncated()
      }
    }
    return result
  }
}
