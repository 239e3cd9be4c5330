import RippleCore

// The `generate:` section of ripple.yml (issue 14): resources a command builds at bootstrap, such as a
// word list compressed and then imported into SQLite. Values only; parsing lives in ConfigLoading
// (GenerateParser.swift), running in Assets (Generator.swift). Rules: docs/DESIGN.md, section 4.

/// One generated resource: a command that writes into `$RIPPLE_OUTPUT_DIR`, installed into
/// `destination` exactly as an asset is.
public struct GenerateSpec: Sendable, Hashable {
  /// Same rules as asset ids, and unique among assets and generate entries (they share receipts).
  public var id: String
  /// argv, run without a shell at the repository root; `argv[0]` is checked before any download.
  public var command: [String]
  /// Repo-relative globs of the files the command reads; each must match at least one file.
  public var inputs: [Glob]
  /// Repo-relative folder the command's outputs are installed into.
  public var destination: String
  /// Ids of assets or generate entries installed before this one runs.
  public var after: [String]
  /// An asset that replaces the command when it is accessible (the private variant).
  public var privateAsset: String?
  /// Names of the variables the command reads; their values are part of the up-to-date key.
  public var environment: [String]
  /// argv of a version command (e.g. `[sqlite3, -version]`); its output is part of the up-to-date key.
  public var toolchain: [String]?
  /// Files the command must write (relative to `$RIPPLE_OUTPUT_DIR`); empty: at least one file.
  public var outputs: [String]
  /// How long the command may run; then its process group is killed and the entry fails, its previous
  /// outputs kept (`timeout:`, default 30 minutes).
  public var timeout: Duration
  /// Where `destination` was written (for errors found on disk).
  public var origins: PathOrigins

  public static let defaultTimeout: Duration = .seconds(30 * 60)

  public init(
    id: String, command: [String], inputs: [Glob] = [], destination: String, after: [String] = [],
    privateAsset: String? = nil, environment: [String] = [], toolchain: [String]? = nil, outputs: [String] = [],
    timeout: Duration = GenerateSpec.defaultTimeout, origins: PathOrigins = .init()
  ) {
    self.timeout = timeout
    self.id = id
    self.command = command
    self.inputs = inputs
    self.destination = destination
    self.after = after
    self.privateAsset = privateAsset
    self.environment = environment
    self.toolchain = toolchain
    self.outputs = outputs
    self.origins = origins
  }
}

/// The order of `generate:` entries (pure): dependencies first, and the cycle when there is one.
public enum GenerateOrder {
  /// Ids in an order where every entry comes after the generate entries it names in `after` (ids of
  /// assets are ignored: assets are installed before any entry runs). Ties keep config order.
  /// Returns the cycle (`[a, b, a]`) instead when the `after` lists loop.
  public static func sorted(_ entries: [GenerateSpec]) -> Result<[String], Cycle> {
    let ids = Set(entries.map(\.id))
    var order: [String] = []
    var state: [String: Bool] = [:]  // false: on the current path; true: done
    let byID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    func visit(_ id: String, path: [String]) -> Cycle? {
      if state[id] == true { return nil }
      if state[id] == false {
        let start = path.firstIndex(of: id) ?? 0
        return Cycle(ids: Array(path[start...]) + [id])
      }
      state[id] = false
      for dependency in byID[id]?.after ?? [] where ids.contains(dependency) {
        if let cycle = visit(dependency, path: path + [id]) { return cycle }
      }
      state[id] = true
      order.append(id)
      return nil
    }
    for entry in entries {
      if let cycle = visit(entry.id, path: []) { return .failure(cycle) }
    }
    return .success(order)
  }

  public struct Cycle: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ids around the loop, the first repeated at the end.
    public var ids: [String]
    public var description: String { ids.joined(separator: " → ") }
  }
}
