import Foundation

/// A throwaway git repository in a temp folder, driven by the git CLI (argv arrays, never a shell), with a
/// fixed identity and test-friendly config. Removed on deinit. The one temp-repository helper every test
/// target shares (docs/ARCHITECTURE.md, "Tests").
public final class GitFixture: @unchecked Sendable {
  /// The work tree (or the bare repository's folder): absolute, symlinks resolved, as libgit2 reports it.
  public let root: String
  /// What deinit removes: `root`, or the folder holding it when the checkout's folder is named.
  private let container: String?
  /// What deinit calls instead for a reused fixture (`reused(_:folderName:populate:)`): hands the slot back.
  private let release: (@Sendable () -> Void)?

  /// A new repository (`git init`) on `branch`; `bare` for one without a work tree; `folderName` names the
  /// checkout's own folder (SwiftPM names a `.package(path:)` of the root package by it).
  public init(branch: String = "main", bare: Bool = false, folderName: String? = nil) throws {
    let container = try TemporaryDirectory.make(prefix: "ripple-repo")
    self.container = container
    release = nil
    root = folderName.map { container + "/" + $0 } ?? container
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try git(["init", "-q", "-b", branch] + (bare ? ["--bare"] : []))
  }

  /// Wraps an existing folder (a clone made into a `TemporaryDirectory`) without owning it.
  public init(existing path: String) {
    root = path
    container = nil
    release = nil
  }

  /// Wraps a reused fixture's folder: deinit calls `release` and removes nothing.
  init(reusing path: String, release: @escaping @Sendable () -> Void) {
    root = path
    container = nil
    self.release = release
  }

  deinit {
    if let container { try? FileManager.default.removeItem(atPath: container) }
    release?()
  }

  public func path(_ relative: String) -> String { root + "/" + relative }
  public func url(_ relative: String) -> URL { URL(fileURLWithPath: path(relative)) }

  /// Writes a file, creating its folders.
  public func write(_ relative: String, _ text: String) throws {
    let file = url(relative)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
  }

  public func append(_ relative: String, _ text: String) throws {
    try write(relative, (read(relative) ?? "") + text)
  }

  public func read(_ relative: String) -> String? {
    FileManager.default.contents(atPath: path(relative)).map { String(decoding: $0, as: UTF8.self) }
  }

  public func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: path(relative)) }

  /// Moves a file on disk only (git sees a deletion and an untracked file).
  public func move(_ from: String, _ to: String) throws {
    let target = url(to)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.moveItem(at: url(from), to: target)
  }

  /// `git mv`, creating the target's folders first.
  public func gitMove(_ from: String, _ to: String) throws {
    try FileManager.default.createDirectory(at: url(to).deletingLastPathComponent(), withIntermediateDirectories: true)
    try git("mv", from, to)
  }

  /// Makes `relative` a symbolic link holding `destination` as written (relative to the link's folder, or absolute).
  public func symlink(_ relative: String, to destination: String) throws {
    try FileManager.default.createDirectory(
      at: url(relative).deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: destination)
  }

  public func makeExecutable(_ relative: String) throws {
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path(relative))
  }

  /// Stages everything (ignored files too) but SwiftPM's build folders, and commits, empty or not; returns the
  /// new HEAD's id. A build folder (`BuildFolders.scratchRoots`) is never wanted in a commit: a reused fixture
  /// has them before its first build, and a test commits after building.
  @discardableResult
  public func commitAll(_ message: String = "change") throws -> String {
    try git(["add", "-A", "-f", "--", "."] + BuildFolders.scratchRoots(in: root).map { ":(exclude)" + $0 })
    try git("commit", "-q", "--allow-empty", "-m", message)
    return try revParse("HEAD")
  }

  /// The commit id a spec names.
  public func revParse(_ spec: String) throws -> String {
    try git("rev-parse", "--verify", spec + "^{commit}").trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @discardableResult
  public func git(_ arguments: String...) throws -> String { try git(arguments) }

  @discardableResult
  public func git(_ arguments: [String]) throws -> String { try Self.git(arguments, in: root) }

  /// Runs /usr/bin/git in `directory`; throws with its stderr on a non-zero exit.
  @discardableResult
  public static func git(_ arguments: [String], in directory: String) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in environmentOverrides { environment[key] = value }
    let result = try Command.run(["/usr/bin/git"] + arguments, in: directory, environment: environment)
    guard result.status == 0 else {
      throw GitCommandFailed(
        description: "git \(arguments.joined(separator: " ")) exited \(result.status): \(result.standardError)")
    }
    return result.standardOutput
  }

  /// A fixed identity and config, so tests do not depend on the machine's git setup.
  public static let environmentOverrides: [String: String] = {
    var environment = [
      "GIT_AUTHOR_NAME": "Ripple Tests", "GIT_AUTHOR_EMAIL": "tests@example.invalid",
      "GIT_COMMITTER_NAME": "Ripple Tests", "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    ]
    let config = [
      ("protocol.file.allow", "always"), ("commit.gpgsign", "false"), ("tag.gpgsign", "false"),
      ("init.defaultBranch", "main"), ("advice.detachedHead", "false"),
    ]
    environment["GIT_CONFIG_COUNT"] = String(config.count)
    for (index, (key, value)) in config.enumerated() {
      environment["GIT_CONFIG_KEY_\(index)"] = key
      environment["GIT_CONFIG_VALUE_\(index)"] = value
    }
    return environment
  }()
}

public struct GitCommandFailed: Error, CustomStringConvertible {
  public var description: String
}

/// A temp folder removed on deinit, for clones and non-repositories.
public final class TemporaryDirectory: @unchecked Sendable {
  public let path: String

  public init(prefix: String = "ripple-tmp") throws { path = try Self.make(prefix: prefix) }
  deinit { try? FileManager.default.removeItem(atPath: path) }

  public func child(_ name: String) -> String { path + "/" + name }

  /// A new folder under TMPDIR, symlinks resolved (macOS's /var is /private/var).
  public static func make(prefix: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.resolvingSymlinksInPath().path
  }
}
