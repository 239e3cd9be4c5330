import Foundation
import Git
import TestSupport

/// The shared fixture, with what the mirror tests add (as in GitTests): commit ids as `ObjectID`, the
/// repository opened.
typealias TestRepo = GitFixture

extension GitFixture {
  var path: String { root }

  /// Stages everything and commits, empty or not; returns the new HEAD.
  @discardableResult
  func commit(_ message: String = "change") throws -> ObjectID {
    try git(["add", "-A"])
    try git(["commit", "-q", "--allow-empty", "-m", message])
    return ObjectID(hex: try revParse("HEAD"))
  }

  func open() throws -> GitRepository { try GitRepository.discover(from: root) }
  static func makeTempDirectory() throws -> String { try TemporaryDirectory.make(prefix: "ripple-git") }
}
