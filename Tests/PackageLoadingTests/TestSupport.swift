import Foundation
import PackageModel
import SystemClients
import TestSupport
import Testing

@testable import PackageLoading

/// Runs `body` with a fresh temporary directory (symlinks resolved) that is removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async rethrows -> T {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-graph-tests-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try await body(url.resolvingSymlinksInPath().path)
}

/// Writes `files` (repo-relative path → contents) under `root`.
func write(_ files: [String: String], under root: String) throws {
  for (path, contents) in files {
    let url = URL(fileURLWithPath: root + "/" + path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: url)
  }
}

/// Every file under `root`, repo-relative and sorted.
func listFiles(under root: String) -> [String] {
  let enumerator = FileManager.default.enumerator(atPath: root)
  var files: [String] = []
  while let path = enumerator?.nextObject() as? String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
      files.append(path)
    }
  }
  return files.sorted()
}

/// The files under `root` as the working tree (evaluated in place) or as a revision (scratch).
func snapshot(of root: String, inPlace: Bool) -> TreeSnapshot {
  TreeSnapshot(
    label: inPlace ? "worktree" : "abc1234", rootName: URL(fileURLWithPath: root).lastPathComponent,
    files: listFiles(under: root), workingDirectoryRoot: inPlace ? root : nil
  ) {
    path in FileManager.default.contents(atPath: root + "/" + path).map { Array($0) }
  }
}

/// The process doubles of these tests, all TestSupport `ScriptedProcess`es: these tests measure manifest
/// evaluation itself, so `swift` is the real toolchain, on purpose, and counted; any other command is a test issue.
extension ScriptedProcess {
  /// `swift --version` and `dump-package` by the real toolchain, recorded.
  static func toolchain() -> ScriptedProcess {
    ScriptedProcess().on(.command("swift"), .delegate(to: .live))
  }

  /// `swift --version` only: a `dump-package` is a test issue.
  static func versionOnly() -> ScriptedProcess {
    ScriptedProcess().on(.command("swift", "--version"), .delegate(to: .live))
  }

  var dumpPackageCount: Int { requests(matching: .containing("dump-package")).count }
}

extension ProcessClient {
  /// Any process is a test issue (a warm cache must not start one).
  static var forbidden: ProcessClient { ScriptedProcess().client }
}
