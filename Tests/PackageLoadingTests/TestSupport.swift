import Foundation
import PackageModel
import SystemClients
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

/// Counts the processes started through the live client.
final class ProcessCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var calls: [ProcessRequest] = []

  var requests: [ProcessRequest] { lock.withLock { calls } }
  var dumpPackageCount: Int { requests.filter { $0.arguments.contains("dump-package") }.count }

  var client: ProcessClient {
    ProcessClient { request in
      self.lock.withLock { self.calls.append(request) }
      return try await ProcessClient.live.run(request)
    }
  }

  /// A client under which any process is a test failure.
  static let forbidden = ProcessClient { request in
    Issue.record("unexpected process: \(request.commandLine)")
    throw CancellationError()
  }

  /// A client that runs `swift --version` but under which `dump-package` is a test failure.
  static let forbiddenDumpPackage = ProcessClient { request in
    guard !request.arguments.contains("dump-package") else {
      Issue.record("unexpected process: \(request.commandLine)")
      throw CancellationError()
    }
    return try await ProcessClient.live.run(request)
  }
}
