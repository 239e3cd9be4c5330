import Foundation
import TestSupport
import Testing

/// A fork's pull request from a branch named `main` is not main: it never signs, through the real binary
/// (docs/DESIGN.md, "Pass records").
@Suite(.serialized, .exclusive(.cooperativeThread)) struct PullRequestProtectionTests {
  /// Any 32 bytes are an Ed25519 private key.
  static let signingKey = Data(repeating: 9, count: 32).base64EncodedString()

  static func environment(_ repo: TestRepository, _ ci: [String: String]) -> [String: String] {
    // Whatever CI runs this test: none of its own pull request variables reach the binary.
    let neutral = [
      "RIPPLE_BRANCH": "", "GITHUB_HEAD_REF": "", "GITHUB_EVENT_NAME": "", "GITHUB_REF_NAME": "",
      "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "", "CI_MERGE_REQUEST_IID": "", "CI_COMMIT_REF_NAME": "",
      "BUILDKITE_PULL_REQUEST": "false", "BUILDKITE_BRANCH": "",
    ]
    return neutral.merging([
      "RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_CACHE_DIR": RippleBinary.privateCache(repo.root + "/.build/ripple-cache"),
      "RIPPLE_RESULT_SIGNING_KEY": signingKey,
    ]) { $1 }.merging(ci) { $1 }
  }

  @Test func aForksPullRequestFromMainDoesNotSignAndAPushToMainDoes() throws {
    let repo = try TestCommandTests.makeRepository()
    let pullRequest = try RippleBinary.test(
      ["--all", "--dry-run"], in: repo.root,
      environment: Self.environment(
        repo, ["GITHUB_EVENT_NAME": "pull_request", "GITHUB_HEAD_REF": "main", "GITHUB_REF_NAME": "3/merge"]))
    #expect(pullRequest.status == 0, "\(pullRequest.standardError)")
    #expect(
      pullRequest.standardError.contains(
        "RIPPLE_RESULT_SIGNING_KEY is set, but this job runs for a pull request: its branch main is not protected"),
      "\(pullRequest.standardError)")

    let push = try RippleBinary.test(
      ["--all", "--dry-run"], in: repo.root,
      environment: Self.environment(repo, ["GITHUB_EVENT_NAME": "push", "GITHUB_REF_NAME": "main"]))
    #expect(push.status == 0, "\(push.standardError)")
    #expect(!push.standardError.contains("pull request"), "a push to main is main: \(push.standardError)")
  }
}
