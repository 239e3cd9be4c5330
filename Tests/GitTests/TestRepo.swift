import Foundation
import Git
import Testing

/// A throwaway git repository in a temp dir, driven by the git CLI (argv arrays, never a shell). Removed on deinit.
final class TestRepo {
  /// Absolute, symlinks resolved (what libgit2 reports as the work tree).
  let path: String
  private let ownsDirectory: Bool

  /// A new repository (`git init`), on branch `branch`; `bare` for a bare one.
  init(branch: String = "main", bare: Bool = false) throws {
    path = try Self.makeTempDirectory()
    ownsDirectory = true
    try git(["init", "-q", "-b", branch] + (bare ? ["--bare"] : []))
  }

  /// Wraps an existing directory (e.g. a clone made into a `TempDirectory`), without owning it.
  init(existing path: String) {
    self.path = path
    ownsDirectory = false
  }

  deinit {
    if ownsDirectory { try? FileManager.default.removeItem(atPath: path) }
  }

  static func makeTempDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-git-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.resolvingSymlinksInPath().path
  }

  func url(_ relative: String) -> URL { URL(fileURLWithPath: path).appendingPathComponent(relative) }

  /// Writes a file (creating its folders).
  func write(_ relative: String, _ content: String) throws {
    let file = url(relative)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(content.utf8).write(to: file)
  }

  func remove(_ relative: String) throws { try FileManager.default.removeItem(at: url(relative)) }

  /// Moves a file on disk only (git sees a deletion and an untracked file).
  func move(_ from: String, _ to: String) throws {
    let target = url(to)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.moveItem(at: url(from), to: target)
  }

  /// `git mv`, creating the target's folders first.
  func gitMove(_ from: String, _ to: String) throws {
    try FileManager.default.createDirectory(
      at: url(to).deletingLastPathComponent(), withIntermediateDirectories: true)
    try git("mv", from, to)
  }

  func makeExecutable(_ relative: String) throws {
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url(relative).path)
  }

  /// Stages everything and commits; returns the new HEAD.
  @discardableResult
  func commit(_ message: String = "change", all: Bool = true) throws -> ObjectID {
    if all { try git(["add", "-A"]) }
    try git(["commit", "-q", "--allow-empty", "-m", message])
    return try head()
  }

  func head() throws -> ObjectID { try rev("HEAD") }

  func rev(_ spec: String) throws -> ObjectID {
    ObjectID(
      hex: try git(["rev-parse", "--verify", spec + "^{commit}"]).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  func open() throws -> GitRepository { try GitRepository.discover(from: path) }

  @discardableResult
  func git(_ arguments: [String]) throws -> String { try Self.git(arguments, in: path) }

  @discardableResult
  func git(_ arguments: String...) throws -> String { try git(arguments) }

  /// Runs /usr/bin/git with a fixed identity and test-friendly config; throws with stderr on failure.
  @discardableResult
  static func git(_ arguments: [String], in directory: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    let config = [
      ("protocol.file.allow", "always"), ("commit.gpgsign", "false"), ("tag.gpgsign", "false"),
      ("init.defaultBranch", "main"), ("advice.detachedHead", "false"),
    ]
    environment["GIT_CONFIG_COUNT"] = String(config.count)
    for (index, (key, value)) in config.enumerated() {
      environment["GIT_CONFIG_KEY_\(index)"] = key
      environment["GIT_CONFIG_VALUE_\(index)"] = value
    }
    for role in ["AUTHOR", "COMMITTER"] {
      environment["GIT_\(role)_NAME"] = "t"
      environment["GIT_\(role)_EMAIL"] = "t@t"
    }
    process.environment = environment
    let output = Pipe()
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-git-stderr-\(UUID())")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
      throw GitCommandFailed(
        description: "git \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(stderr)")
    }
    return String(decoding: data, as: UTF8.self)
  }
}

struct GitCommandFailed: Error, CustomStringConvertible {
  var description: String
}

/// A temp directory removed on deinit, for clones and non-repositories.
final class TempDirectory {
  let path: String
  init() throws { path = try TestRepo.makeTempDirectory() }
  deinit { try? FileManager.default.removeItem(atPath: path) }
  func child(_ name: String) -> String { path + "/" + name }
}

/// Runs `body` and returns the `GitError` it throws; records an issue when it throws nothing or something else.
func gitError<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) -> GitError? {
  do {
    let value = try body()
    Issue.record("expected a GitError, got \(value)", sourceLocation: sourceLocation)
  } catch let error as GitError {
    return error
  } catch {
    Issue.record("expected a GitError, got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

/// A few lines, so rename detection has content to compare.
func body(_ name: String) -> String {
  (1...20).map { "line \($0) of \(name): let value\($0) = \($0 * 7)" }.joined(separator: "\n") + "\n"
}
