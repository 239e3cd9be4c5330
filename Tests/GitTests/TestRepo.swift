import Foundation
import Git
import TestSupport
import Testing

/// The shared fixture, with what the Git tests add: commit ids as `ObjectID`, the repository opened.
typealias TestRepo = GitFixture
typealias TempDirectory = TemporaryDirectory

extension GitFixture {
  var path: String { root }

  /// Stages everything (unless `all` is false) and commits, empty or not; returns the new HEAD.
  @discardableResult
  func commit(_ message: String = "change", all: Bool = true) throws -> ObjectID {
    if all { try git(["add", "-A"]) }
    try git(["commit", "-q", "--allow-empty", "-m", message])
    return try head()
  }

  func head() throws -> ObjectID { try rev("HEAD") }
  func rev(_ spec: String) throws -> ObjectID { ObjectID(hex: try revParse(spec)) }
  func open() throws -> GitRepository { try GitRepository.discover(from: root) }
  static func makeTempDirectory() throws -> String { try TemporaryDirectory.make(prefix: "ripple-git") }
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
