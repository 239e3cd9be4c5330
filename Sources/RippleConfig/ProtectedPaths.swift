import Foundation

/// Repository paths that bootstrap must never write into, whatever the config or an archive says:
/// git's own folder (a file there can run as a hook on the next `git commit`, or a `.git` file can
/// point git at another repository's config) and the folders where Ripple keeps its state.
///
/// The one rule for every written path: asset and variant destinations, placeholders, secret
/// outputs, extracted archive entries and installed files.
public enum ProtectedPaths {
  /// Ripple's per-repository state: bootstrap lock, receipts, journal, work folders, test timings.
  public static let stateFolder = ".build/ripple"
  /// Prefixes of the staging and backup folders Ripple creates beside each destination.
  public static let temporaryPrefixes = [".ripple-staging.", ".ripple-backup."]

  /// Why nothing may be written at the repo-relative `path`, or nil when it is allowed.
  ///
  /// Components are compared as a case-insensitive file system would see them (see `folded`).
  public static func problem(in path: String) -> String? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.map {
      folded(String($0))
    }
    if parts.contains(where: isGitName(_:)) {
      return "`\(path)` is inside git's own folder (`.git`), where a file could run as a git hook"
    }
    let state = stateFolder.split(separator: "/").map(String.init)
    if parts.starts(with: state) || (!parts.isEmpty && state.starts(with: parts)) {
      return "`\(path)` would write into \(stateFolder), where Ripple keeps its own state (lock, receipts, journal)"
    }
    if parts.contains(where: isTemporaryName(_:)) {
      return "`\(path)` is a Ripple staging or backup folder"
    }
    return nil
  }

  /// Whether a single name may never appear in a written path: `.git` (any spelling) or a Ripple
  /// staging/backup folder. For archive entries, whose names are relative to the destination.
  public static func isProtectedName(_ name: String) -> Bool {
    let name = folded(name)
    return isGitName(name) || isTemporaryName(name)
  }

  private static func isTemporaryName(_ folded: String) -> Bool {
    temporaryPrefixes.contains { folded.hasPrefix($0) }
  }

  /// `.git`, and the spellings that file systems treat as `.git`: NTFS's short name `git~1`, trailing
  /// dots and spaces (Windows drops them).
  static func isGitName(_ folded: String) -> Bool {
    var name = Substring(folded)
    while let last = name.last, last == "." || last == " " { name = name.dropLast() }
    return name == ".git" || name == "git~1"
  }

  /// Lowercased, NFC, without the code points HFS+ ignores in names (so `.G\u{200C}it` is `.git`).
  static func folded(_ name: String) -> String {
    let scalars = name.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars.filter {
      !hfsIgnored.contains($0.value)
    }
    return String(String.UnicodeScalarView(scalars))
  }

  private static let hfsIgnored: Set<UInt32> = Set(
    [0x200C, 0x200D, 0x200E, 0x200F, 0xFEFF] + Array(0x202A...0x202E) + Array(0x206A...0x206F))
}

/// Where a value was written in the config file, for errors found after parsing (on disk).
public struct ConfigLocation: Sendable, Codable, Hashable {
  public var file: String
  public var line: Int?
  public var column: Int?
  public var keyPath: String

  public init(file: String, line: Int?, column: Int?, keyPath: String) {
    self.file = file
    self.line = line
    self.column = column
    self.keyPath = keyPath
  }

  public func error(_ message: String, hint: String? = nil) -> ConfigError {
    ConfigError(file: file, line: line, column: column, keyPath: keyPath, message: message, hint: hint)
  }
}

/// Repo path → where the config wrote it. Not part of a spec's value: two specs that say the same
/// thing are equal wherever they were written.
public struct PathOrigins: Sendable, Hashable {
  private var byPath: [String: ConfigLocation]

  public init(_ byPath: [String: ConfigLocation] = [:]) {
    self.byPath = byPath
  }

  public subscript(path: String) -> ConfigLocation? {
    get { byPath[path] }
    set { byPath[path] = newValue }
  }

  public static func == (_: PathOrigins, _: PathOrigins) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}
}

/// The files written into one folder, checked as a case-insensitive, normalisation-insensitive file
/// system (macOS defaults) would store them: two names for one file, or a file where another path
/// needs a folder, cannot both be installed.
public struct FileNameRegistry: Sendable {
  public enum Conflict: Equatable, Sendable {
    /// The same name, or equal by case or Unicode normalisation.
    case sameName(earlier: String)
    /// One of the two is a file where the other needs a folder (`x` and `x/y`).
    case fileAndFolder(earlier: String)

    public var earlier: String {
      switch self {
      case .sameName(let earlier), .fileAndFolder(let earlier): earlier
      }
    }
  }

  private var files: [String: String] = [:]
  private var folders: [String: String] = [:]

  public init() {}

  /// Records `path` unless it conflicts with an earlier one; returns the conflict.
  public mutating func insert(_ path: String) -> Conflict? {
    let key = Self.collisionKey(path)
    if let earlier = files[key] { return .sameName(earlier: earlier) }
    if let earlier = folders[key] { return .fileAndFolder(earlier: earlier) }
    var prefix = ""
    for part in key.split(separator: "/").dropLast() {
      prefix += prefix.isEmpty ? String(part) : "/" + part
      if let earlier = files[prefix] { return .fileAndFolder(earlier: earlier) }
    }
    files[key] = path
    prefix = ""
    for part in key.split(separator: "/").dropLast() {
      prefix += prefix.isEmpty ? String(part) : "/" + part
      if folders[prefix] == nil { folders[prefix] = path }
    }
    return nil
  }

  /// NFC, then case-folded.
  public static func collisionKey(_ path: String) -> String {
    path.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
  }
}
