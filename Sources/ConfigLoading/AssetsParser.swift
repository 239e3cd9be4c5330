import RippleConfig
import RippleCore

/// Validates the `assets:` section (a list of assets) into `[AssetSpec]`.
///
/// Everything that can be checked without the file system is checked here, before anything is touched:
/// ids, hashes, paths that could leave the repository, transform commands. File-system checks (symlinks,
/// overlapping destinations) belong to the bootstrap plan.
enum AssetsParser {
  static let keys = [
    "id", "source", "sha256", "size", "credentials", "archive", "destination", "transform", "placeholders",
  ]

  static func parse(_ value: YAMLValue) throws -> [AssetSpec] {
    var seen: [String: Int] = [:]
    return try value.listElements().map { element in
      let asset = try parseAsset(element)
      if let line = seen[asset.id] {
        throw element.error("duplicate asset id `\(asset.id)`", hint: "the first one is at line \(line)")
      }
      seen[asset.id] = element.node.mark?.line ?? 0
      return asset
    }
  }

  private static func parseAsset(_ value: YAMLValue) throws -> AssetSpec {
    let entries = try value.entries(allowed: keys, required: ["id", "source"])
    let id = try entries["id"]!.assetIdentifier()
    let source = try SourceParser.source(entries["source"]!)
    // An LFS source is verified against each pointer's oid; every other source needs its pin.
    let sha256: String
    if case .lfs = source {
      for key in ["sha256", "archive", "credentials"] {
        if let given = entries[key] {
          throw given.error(
            "an lfs source takes no `\(key)`",
            hint: key == "sha256" ? "each file is verified against its LFS pointer's oid" : "remove it")
        }
      }
      sha256 = ""
    } else {
      guard let given = entries["sha256"] else {
        throw value.error("missing key `sha256`", hint: "compute it with `shasum -a 256 FILE` or `sha256sum FILE`")
      }
      sha256 = try checksum(given)
    }
    let size = try entries["size"].map { try $0.integer() }
    let credentials = try entries["credentials"].map(SourceParser.credentials) ?? CredentialReference.none
    let archive = try entries["archive"].map(archiveSpec)
    var origins = PathOrigins()
    let transform = try entries["transform"].map { try TransformParser.parse($0, origins: &origins) }

    var destination = ""
    if let variants = transform?.variants, !variants.isEmpty {
      if let given = entries["destination"] {
        throw given.error(
          "an asset with transform variants installs into each variant's destination",
          hint: "remove `destination` or the variants")
      }
    } else {
      guard let given = entries["destination"] else {
        throw value.error("missing key `destination`", hint: "the repo-relative folder the files go into")
      }
      destination = try given.repoDestination()
      origins[destination] = given.location
    }
    var spec = AssetSpec(
      id: id, source: source, sha256: sha256, size: size, credentials: credentials, archive: archive,
      destination: destination, transform: transform, origins: origins)
    spec.placeholders =
      try entries["placeholders"].map { try placeholderList($0, into: spec.installDestinations) } ?? []
    return spec
  }

  static func checksum(_ value: YAMLValue) throws -> String {
    let text = try value.string().lowercased()
    guard text.count == 64 else {
      throw value.error(
        "a SHA-256 is 64 hexadecimal characters, this one has \(text.count)",
        hint: "compute it with `shasum -a 256 FILE` or `sha256sum FILE`")
    }
    guard text.allSatisfy({ $0.isHexDigit }) else {
      throw value.error("`\(text)` is not hexadecimal", hint: "use only 0-9 and a-f")
    }
    return text
  }

  private static func archiveSpec(_ value: YAMLValue) throws -> ArchiveSpec {
    let keys = ["format", "stripComponents", "flatten", "include", "exclude", "maxEntries", "maxExpandedBytes"]
    let entries = try value.entries(allowed: keys, required: ["format"])
    let formatValue = entries["format"]!
    guard let format = ArchiveFormat(rawValue: try formatValue.string()) else {
      throw formatValue.error(
        "\(formatValue.typeDescription) is not an archive format",
        hint: "expected one of: " + ArchiveFormat.allCases.map(\.rawValue).joined(separator: ", "))
    }
    var spec = ArchiveSpec(format: format)
    if let strip = entries["stripComponents"] { spec.stripComponents = Int(try strip.integer(in: 0...100)) }
    if let flatten = entries["flatten"] { spec.flatten = try flatten.boolean() }
    if let include = entries["include"] { spec.include = try include.globList() }
    if let exclude = entries["exclude"] { spec.exclude = try exclude.globList() }
    if let limit = entries["maxEntries"] { spec.maxEntries = Int(try limit.integer(in: 1...10_000_000)) }
    if let limit = entries["maxExpandedBytes"] { spec.maxExpandedBytes = try limit.integer(in: 1...Int64.max) }
    return spec
  }

  /// Placeholders are written into every install destination: each path must be allowed there, and
  /// no two may collide on a case-insensitive file system (or need one name as a file and a folder).
  private static func placeholderList(_ value: YAMLValue, into destinations: [String]) throws -> [PlaceholderSpec] {
    var names = FileNameRegistry()
    return try value.listElements().map { element in
      let entries = try element.entries(allowed: ["path", "contents"], required: ["path"])
      let pathValue = entries["path"]!
      let path = try pathValue.string()
      if let problem = RelativePathRule.problem(in: path) {
        throw pathValue.error(problem, hint: "placeholder paths are relative to the asset's destination")
      }
      let normalized = RelativePathRule.normalized(path)
      for destination in destinations {
        if let problem = ProtectedPaths.problem(in: destination + "/" + normalized) {
          throw pathValue.error(problem, hint: "placeholder paths are relative to the asset's destination")
        }
      }
      switch names.insert(normalized) {
      case nil: break
      case .sameName(let earlier) where earlier == normalized:
        throw pathValue.error("placeholder `\(path)` is listed twice")
      case .sameName(let earlier):
        throw pathValue.error(
          "placeholders `\(earlier)` and `\(normalized)` differ only by case or Unicode normalisation",
          hint: "they would overwrite each other on macOS; rename one")
      case .fileAndFolder(let earlier):
        throw pathValue.error(
          "placeholders `\(earlier)` and `\(normalized)` need the same name as a file and as a folder",
          hint: "rename one")
      }
      let contents = try entries["contents"].map { try $0.string() } ?? ""
      return PlaceholderSpec(path: normalized, contents: contents)
    }
  }
}
