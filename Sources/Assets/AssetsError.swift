import AssetFetch
import RippleConfig
import RippleCore

/// What can go wrong in `ripple bootstrap`; each a sentence saying what failed, where, and what to do.
///
/// Categories: a download or archive that fails verification, or a transform that fails, is a failed
/// check (exit 1); a plan that cannot be carried out as configured is a config error (exit 2); missing
/// tools, missing access (`--require-private`), an empty cache with `--offline` and file-system
/// failures are environment errors (exit 3).
public enum AssetsError: RippleError, Hashable {
  case checksumMismatch(asset: String, expected: String, actual: String, origin: String)
  case sizeMismatch(asset: String, expected: Int64, actual: Int64, origin: String)
  case unsafeArchiveEntry(asset: String, entry: String, reason: String)
  case archiveLimitExceeded(asset: String, limit: String)
  case archiveUnreadable(asset: String, reason: String)
  case includeMatchedNothing(asset: String, glob: String)
  case nameCollision(asset: String, first: String, second: String)
  /// `archive.flatten`: two selected entries with one base name (compared ignoring case).
  case flattenCollision(asset: String, first: String, second: String)
  /// `owner`: "asset `a`" or "secret `s`"; `at`: where the config names the path.
  case destinationOutsideRepository(owner: String, path: String, resolved: String, at: ConfigLocation?)
  /// A destination that reaches git's folder or Ripple's state (on disk: through a symlink or a `.git` file).
  case protectedDestination(owner: String, path: String, reason: String, at: ConfigLocation?)
  /// A file to install (from an archive, transform or download) that would land in a protected path.
  case protectedFile(owner: Owner, path: String, reason: String)
  case overlappingDestinations(first: String, second: String, path: String)
  case missingTool(asset: String, tool: String)
  case toolVersionMismatch(asset: String, command: String, expected: String)
  /// The version check itself did not run to a successful end (not started, timed out, non-zero status).
  case toolVersionCheckFailed(asset: String, command: String, reason: String)
  case transformFailed(asset: String, file: String, command: String, status: Int32, stderrTail: String)
  case missingFromCache([String])
  case accessRequired(asset: String, reason: String)
  case fetchFailed(asset: String, reason: String)
  /// The source is broken or misconfigured (404, refused, unknown host, plain http, a missing `file` path):
  /// not "no access", so no placeholder stands in. `category` is the fetch error's: a misconfiguration is a
  /// usage error (2), a remote or network failure an environment error (3).
  case sourceBroken(asset: String, reason: String, category: ErrorCategory)
  case fileSystem(operation: String, path: String, reason: String)
  case unmanagedFileInTheWay(owner: Owner, path: String)
  case gitTrackedFileInTheWay(owner: Owner, path: String)
  case secretNotIgnored(secret: String, output: String)
  case secretValuesMissing(secret: String, variables: [String])
  case secretTemplate(secret: String, reason: String)
  /// `generate:` entries (GenerateRunner.swift): the command failed or wrote nothing usable.
  case generateFailed(entry: String, command: String, status: Int32, stderrTail: String)
  case generateOutputMissing(entry: String, command: String, missing: [String])
  /// An output that is not a plain file or a symlink inside `$RIPPLE_OUTPUT_DIR`, or a write beside it.
  case generateOutputEscapes(entry: String, path: String, reason: String)
  case generateInputMatchedNothing(entry: String, glob: String)
  case generateInputOutsideRepository(entry: String, path: String, resolved: String)
  case generateMissingTool(entry: String, tool: String)
  case generateSkipped(entry: String, after: [String])
  /// The command ran past the entry's `timeout`; its process group was killed.
  case generateTimedOut(entry: String, command: String, after: Duration)
  /// Ctrl-C or SIGTERM stopped the run (and the command's process group) before the entry finished.
  case generateInterrupted(entry: String)
  /// Two entries (asset or generate) install the same file.
  case sharedOutputFile(entry: String, path: String, owner: String)
  /// `lfs` sources: git-lfs missing, a glob matching no tracked file, a matched file that is not a
  /// pointer, an object neither in git-lfs's store nor fetchable.
  case lfsMissing(asset: String)
  case lfsPathsMatchedNothing(asset: String, glob: String)
  case notAnLFSPointer(asset: String, path: String)
  case lfsObjectUnavailable(asset: String, path: String, reason: String)
  /// Several assets failed; each message is kept.
  case several([AssetsError])

  /// Who installs a file: an asset or a `generate:` entry (messages name which).
  public enum Owner: Sendable, Hashable, CustomStringConvertible {
    case asset(String)
    case generateEntry(String)

    public var description: String {
      switch self {
      case .asset(let id): "asset `\(id)`"
      case .generateEntry(let id): "generate entry `\(id)`"
      }
    }
  }

  public var category: ErrorCategory {
    switch self {
    case .checksumMismatch, .sizeMismatch, .unsafeArchiveEntry, .archiveLimitExceeded, .archiveUnreadable,
      .nameCollision, .flattenCollision, .transformFailed, .unmanagedFileInTheWay, .gitTrackedFileInTheWay,
      .protectedFile,
      .generateFailed, .generateOutputMissing, .generateOutputEscapes, .generateSkipped, .generateTimedOut:
      .checkFailed
    case .includeMatchedNothing, .destinationOutsideRepository, .protectedDestination, .overlappingDestinations,
      .secretNotIgnored, .secretTemplate, .generateInputMatchedNothing, .generateInputOutsideRepository,
      .sharedOutputFile, .lfsPathsMatchedNothing, .notAnLFSPointer:
      .usage
    case .missingTool, .toolVersionMismatch, .toolVersionCheckFailed, .lfsMissing, .lfsObjectUnavailable,
      .generateMissingTool,
      .generateInterrupted, .missingFromCache,
      .accessRequired, .fetchFailed,
      .fileSystem,
      .secretValuesMissing:
      .environment
    case .sourceBroken(_, _, let category):
      category
    case .several(let errors):
      errors.map(\.category).max(by: { $0.rawValue < $1.rawValue }) ?? .checkFailed
    }
  }

  public var description: String {
    switch self {
    case .checksumMismatch(let asset, let expected, let actual, let origin):
      "asset `\(asset)`: the download from \(origin) has SHA-256 \(actual), expected \(expected); the file was deleted."
        + " If the asset was updated on purpose, put the new sha256 in ripple.yml."
    case .sizeMismatch(let asset, let expected, let actual, let origin):
      "asset `\(asset)`: the download from \(origin) is \(actual) bytes, expected \(expected); the file was deleted."
        + " Check the URL (an HTML error page is a common cause) or update `size` in ripple.yml."
    case .unsafeArchiveEntry(let asset, let entry, let reason):
      "asset `\(asset)`: refused archive entry `\(entry)`: \(reason); nothing was installed."
    case .archiveLimitExceeded(let asset, let limit):
      "asset `\(asset)`: the archive exceeds \(limit); nothing was installed."
        + " Raise the limit under `archive:` in ripple.yml if the archive is trusted."
    case .archiveUnreadable(let asset, let reason):
      "asset `\(asset)`: the archive cannot be read: \(reason); check `archive.format` in ripple.yml."
    case .includeMatchedNothing(let asset, let glob):
      "asset `\(asset)`: `archive.include` glob `\(glob)` matches no file in the archive; fix the glob in ripple.yml."
    case .nameCollision(let asset, let first, let second):
      "asset `\(asset)`: archive entries `\(first)` and `\(second)` differ only by case or Unicode normalisation"
        + " and would overwrite each other on macOS; nothing was installed."
    case .flattenCollision(let asset, let first, let second):
      "asset `\(asset)`: archive entries `\(first)` and `\(second)` have one name once flattened"
        + " (`archive.flatten`); narrow `archive.include` or install them unflattened. Nothing was installed."
    case .destinationOutsideRepository(let owner, let path, let resolved, let location):
      Self.prefix(location) + "\(owner): `\(path)` resolves to \(resolved), outside the repository (through a symlink);"
        + " point it at a folder inside the repository."
    case .protectedDestination(let owner, let path, let reason, let location):
      Self.prefix(location) + "\(owner): refused destination `\(path)`: \(reason); nothing was written."
    case .protectedFile(let owner, let path, let reason):
      "\(owner): refused to install `\(path)`: \(reason); nothing was installed."
    case .overlappingDestinations(let first, let second, let path):
      "`\(first)` and `\(second)` both install into `\(path)`; give each its own folder in ripple.yml."
    case .missingTool(let asset, let tool):
      "asset `\(asset)`: the transform needs `\(tool)`, which is not on PATH; install it (e.g. `apt-get install \(tool)`"
        + " or `brew install \(tool)`) and run again. Nothing was downloaded."
    case .toolVersionMismatch(let asset, let command, let expected):
      "asset `\(asset)`: `\(command)` does not report `\(expected)`; install a matching version. Nothing was downloaded."
    case .toolVersionCheckFailed(let asset, let command, let reason):
      "asset `\(asset)`: checking the transform tool's version with `\(command)` failed: \(reason). Nothing was downloaded."
    case .transformFailed(let asset, let file, let command, let status, let tail):
      "asset `\(asset)`: transforming `\(file)` failed: `\(command)` exited with status \(status)"
        + (tail.isEmpty ? "" : ":\n" + tail) + "\nNothing was installed for this asset."
    case .missingFromCache(let items):
      "--offline: not in the cache:\n" + items.map { "  " + $0 }.joined(separator: "\n")
        + "\nRun `ripple bootstrap` once with network access."
    case .accessRequired(let asset, let reason):
      "asset `\(asset)`: private access is required (--require-private) but \(reason)."
    case .fetchFailed(let asset, let reason):
      "asset `\(asset)`: download failed: \(reason). A partial download is kept and resumed next time."
    case .sourceBroken(let asset, let reason, _):
      "asset `\(asset)`: its source cannot be used: \(reason). Nothing was installed for it: placeholders stand in"
        + " only where access is missing."
    case .fileSystem(let operation, let path, let reason):
      "cannot \(operation) \(path): \(reason)."
    case .unmanagedFileInTheWay(let owner, let path):
      "\(owner): `\(path)` exists but was not installed by Ripple (or was edited); it was kept."
        + " Remove it or run with --force to replace it."
    case .gitTrackedFileInTheWay(let owner, let path):
      "\(owner): `\(path)` is tracked by git; Ripple never replaces or deletes tracked files."
        + " `git rm --cached` it (and ignore it) if it should be an asset."
    case .secretNotIgnored(let secret, let output):
      "secret `\(secret)`: `\(output)` is not ignored by git, so it could be committed; add it to .gitignore"
        + " (and `git rm --cached` it if it is tracked). Nothing was written."
    case .secretValuesMissing(let secret, let variables):
      "secret `\(secret)`: environment variable\(variables.count == 1 ? "" : "s") "
        + variables.map { "`\($0)`" }.joined(separator: ", ")
        + " not set; set \(variables.count == 1 ? "it" : "them"), or add `example:` for people without access."
    case .secretTemplate(let secret, let reason):
      "secret `\(secret)`: \(reason)."
    case .generateFailed(let entry, let command, let status, let tail):
      "generate entry `\(entry)`: `\(command)` exited with status \(status)" + (tail.isEmpty ? "" : ":\n" + tail)
        + "\nThe previous outputs were kept."
    case .generateOutputMissing(let entry, let command, let missing):
      "generate entry `\(entry)`: `\(command)` succeeded but did not write "
        + (missing.isEmpty
          ? "anything into $RIPPLE_OUTPUT_DIR" : missing.map { "`\($0)`" }.joined(separator: ", "))
        + "; the previous outputs were kept."
    case .generateOutputEscapes(let entry, let path, let reason):
      "generate entry `\(entry)`: refused output `\(path)`: \(reason); nothing was installed for this entry."
    case .generateInputMatchedNothing(let entry, let glob):
      "generate entry `\(entry)`: input glob `\(glob)` matches no file; fix `inputs` in ripple.yml"
        + " (or list the entry that writes it in `after`). Nothing was run."
    case .generateInputOutsideRepository(let entry, let path, let resolved):
      "generate entry `\(entry)`: input `\(path)` resolves to \(resolved), outside the repository (through a symlink);"
        + " inputs must be files of the repository. Nothing was run."
    case .generateMissingTool(let entry, let tool):
      "generate entry `\(entry)`: the command needs `\(tool)`, which is not on PATH (nor a file of the repository);"
        + " install it and run again. Nothing was downloaded."
    case .generateSkipped(let entry, let after):
      "generate entry `\(entry)`: skipped because "
        + after.map { "`\($0)`" }.joined(separator: ", ") + (after.count == 1 ? " was" : " were")
        + " not installed; its previous outputs were kept."
    case .generateTimedOut(let entry, let command, let after):
      "generate entry `\(entry)`: `\(command)` did not finish within \(Self.shown(after)) and was stopped with"
        + " every process it started; the previous outputs were kept. Raise its `timeout` in ripple.yml if it"
        + " needs longer."
    case .generateInterrupted(let entry):
      "generate entry `\(entry)`: interrupted (Ctrl-C or SIGTERM); its command was stopped with every process"
        + " it started, and the previous outputs were kept."
    case .sharedOutputFile(let entry, let path, let owner):
      "generate entry `\(entry)`: writes `\(path)`, which `\(owner)` installs; two entries cannot write one file."
        + " Nothing was installed for generate entry `\(entry)`; change its outputs or destination in ripple.yml."
    case .lfsMissing(let asset):
      "asset `\(asset)`: its lfs source needs git-lfs, which is not on PATH; install it (`apt-get install git-lfs`"
        + " or `brew install git-lfs`) and run again. Nothing was downloaded."
    case .lfsPathsMatchedNothing(let asset, let glob):
      "asset `\(asset)`: `lfs.paths` glob `\(glob)` matches no tracked file; fix the glob in ripple.yml."
    case .notAnLFSPointer(let asset, let path):
      "asset `\(asset)`: `\(path)` matches `lfs.paths` but is committed as a plain file, not a Git LFS pointer;"
        + " track it with `git lfs track` (and commit it again), or narrow `lfs.paths`."
    case .lfsObjectUnavailable(let asset, let path, let reason):
      "asset `\(asset)`: the Git LFS object of `\(path)` is not in git-lfs's local store and \(reason);"
        + " nothing was installed for this asset."
    case .several(let errors):
      "\(errors.count) problems:\n" + errors.map { "- " + $0.description }.joined(separator: "\n")
    }
  }

  /// `ripple.yml:5:18: assets[0].destination: `, like a `ConfigError`.
  private static func prefix(_ location: ConfigLocation?) -> String {
    guard let location else { return "" }
    var text = location.file
    if let line = location.line {
      text += ":\(line)"
      if let column = location.column { text += ":\(column)" }
    }
    return text + ": " + (location.keyPath.isEmpty ? "" : location.keyPath + ": ")
  }

  /// `30m`, `90s`, `500ms`.
  static func shown(_ duration: Duration) -> String {
    let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
    if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
    return "\(milliseconds)ms"
  }

  /// A fetch error that means the source is broken, its sentence without the leading "asset 'id': ".
  static func sourceBroken(_ error: FetchError) -> AssetsError {
    let prefix = "asset '\(error.assetID)': "
    let reason = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    return .sourceBroken(asset: error.assetID, reason: reason, category: error.category)
  }

  /// One error, or all of them together.
  static func combine(_ errors: [AssetsError]) -> AssetsError? {
    errors.count <= 1 ? errors.first : .several(errors)
  }
}
