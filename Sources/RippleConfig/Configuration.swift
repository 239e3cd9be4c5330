import RippleCore

/// The contents of `ripple.yml` once validated.
public struct RippleConfiguration: Sendable, Hashable {
  /// Where it was read from (nil for the built-in default).
  public var sourcePath: String?
  public var selection: SelectionConfig
  /// `assets:` and `secrets:`, for `ripple bootstrap`.
  public var assets: AssetsConfig
  /// `daemon:`: what `rippled` applies over its own settings for this repository.
  public var daemon: RepositoryDaemonSettings
  /// `test:`: the runs the selected tests are planned into, and what they need.
  public var test: TestConfig

  public init(
    sourcePath: String? = nil, selection: SelectionConfig = .init(), assets: AssetsConfig = .init(),
    daemon: RepositoryDaemonSettings = .init(), test: TestConfig = .init()
  ) {
    self.sourcePath = sourcePath
    self.selection = selection
    self.assets = assets
    self.daemon = daemon
    self.test = test
  }
}

/// What to do with a changed file that no target owns and no rule names.
public enum UnownedPolicy: String, Sendable, Hashable {
  /// Run every test and warn (safe default).
  case all
  /// Ignore such files.
  case ignore
}

/// One version of `selection.toolchains` and where the config lists it.
public struct ListedToolchain: Sendable, Hashable {
  /// Major, minor and optionally patch, as written (`6.0` → [6, 0]).
  public var version: [Int]
  public var location: ConfigLocation

  public init(version: [Int], location: ConfigLocation) {
    self.version = version
    self.location = location
  }

  /// `6.0`, `6.1.2`.
  public var name: String { version.map(String.init).joined(separator: ".") }

  /// `ripple.yml:4:17: selection.toolchains[0]`: the start of an error about this entry.
  public var origin: String {
    var text = location.file
    if let line = location.line {
      text += ":\(line)"
      if let column = location.column { text += ":\(column)" }
    }
    return text + ": " + location.keyPath
  }
}

/// `selection:` — how changed files map to tests beyond the package graph (docs/DESIGN.md, rule 8).
public struct SelectionConfig: Sendable, Hashable {
  public var ignore: [Glob]
  public var global: [Glob]
  public var unowned: UnownedPolicy
  /// Target name (or `package-dir:Target`) → globs of files outside targets that feed it.
  public var inputs: [String: [Glob]]
  /// The manifest is evaluated once per entry; the graphs are unioned. Never empty.
  public var manifestEnvironments: [[String: String]]
  public var excludePackages: [Glob]
  /// `selection.toolchains`: the Swift versions CI builds with; the graph unions the manifest each one's
  /// SwiftPM reads (docs/DESIGN.md, rule 4). Empty: the installed toolchain's choice only.
  public var toolchains: [ListedToolchain]

  public init(
    ignore: [Glob] = [], global: [Glob] = [], unowned: UnownedPolicy = .all, inputs: [String: [Glob]] = [:],
    manifestEnvironments: [[String: String]] = [[:]], excludePackages: [Glob] = [], toolchains: [ListedToolchain] = []
  ) {
    self.toolchains = toolchains
    self.ignore = ignore
    self.global = global
    self.unowned = unowned
    self.inputs = inputs
    self.manifestEnvironments = manifestEnvironments.isEmpty ? [[:]] : manifestEnvironments
    self.excludePackages = excludePackages
  }
}
