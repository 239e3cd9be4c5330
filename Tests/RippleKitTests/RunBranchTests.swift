import Foundation
import ResultStore
import RippleCore
import TestSupport
import Testing

@testable import RippleKit

/// Protection never comes from a pull request's head ref, and defaults to the remote's default branch
/// (docs/DESIGN.md, "Pass records").
@Suite struct RunBranchTests {
  /// Base64 of 32 bytes: any 32 bytes are an Ed25519 private key.
  static let signingKey = Data(repeating: 7, count: 32).base64EncodedString()

  @Test func theCIsPullRequestVariablesMakeAPullRequest() {
    #expect(RunBranch.isPullRequest(["GITHUB_HEAD_REF": "main", "GITHUB_REF_NAME": "12/merge"]))
    #expect(RunBranch.isPullRequest(["GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_REF_NAME": "main"]))
    #expect(RunBranch.isPullRequest(["CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "main", "CI_COMMIT_REF_NAME": "main"]))
    #expect(RunBranch.isPullRequest(["CI_MERGE_REQUEST_IID": "7"]))
    #expect(RunBranch.isPullRequest(["BUILDKITE_PULL_REQUEST": "42", "BUILDKITE_BRANCH": "main"]))
    #expect(!RunBranch.isPullRequest(["BUILDKITE_PULL_REQUEST": "false", "BUILDKITE_BRANCH": "main"]))
    #expect(!RunBranch.isPullRequest(["GITHUB_EVENT_NAME": "push", "GITHUB_REF_NAME": "main", "GITHUB_HEAD_REF": ""]))
    #expect(!RunBranch.isPullRequest([:]))
  }

  @Test func theDefaultProtectedBranchIsTheRemotesDefaultElseMainAndMaster() throws {
    let repository = try GitFixture()
    try repository.write("README.md", "x\n")
    try repository.commitAll("init")
    let opened = try Workspace.open(directory: repository.root, services: .failing).repository
    #expect(RunBranch.defaultProtectedBranches(opened) == ["main", "master"])
    _ = try repository.git("update-ref", "refs/remotes/origin/trunk", "HEAD")
    _ = try repository.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
    #expect(RunBranch.defaultProtectedBranches(opened) == ["trunk"])
  }

  static func access(_ environment: [String: String], config: String? = nil) throws -> (
    ResultStoreAccess?, [String]
  ) {
    let repository = try GitFixture()
    try repository.write("README.md", "x\n")
    if let config { try repository.write("ripple.yml", config) }
    try repository.commitAll("init")
    var services = RippleServices(process: .failing, environment: environment)
    let store = ResultStoreClient.memory()
    services.makeResultStore = { _, _, _ in store }
    let workspace = try Workspace.open(directory: repository.root, services: services)
    var warnings: [String] = []
    let access = workspace.resultStoreAccess(ResultCacheUse(), warnings: &warnings)
    return (access, warnings)
  }

  @Test func aForksPullRequestFromABranchNamedMainIsNotProtectedAndDoesNotSign() throws {
    let pullRequest = [
      "GITHUB_EVENT_NAME": "pull_request", "GITHUB_HEAD_REF": "main", "GITHUB_REF_NAME": "12/merge",
      "RIPPLE_RESULT_SIGNING_KEY": Self.signingKey,
    ]
    let (access, warnings) = try Self.access(pullRequest)
    let pr = try #require(access)
    #expect(pr.branch == "main")
    #expect(!pr.isProtected, "a pull request's head ref never makes a protected branch")
    #expect(pr.signingKey == nil, "its records are not signed")
    #expect(warnings.contains { $0.contains("pull request") }, "\(warnings)")

    // RIPPLE_BRANCH=main in a pull request's job is not main either.
    let (named, _) = try Self.access(["RIPPLE_BRANCH": "main", "CI_MERGE_REQUEST_IID": "3"])
    #expect(named?.isProtected == false)

    // The same branch pushed (no pull request): protected, and it signs.
    let (push, pushWarnings) = try Self.access([
      "GITHUB_EVENT_NAME": "push", "GITHUB_REF_NAME": "main", "RIPPLE_RESULT_SIGNING_KEY": Self.signingKey,
    ])
    #expect(push?.isProtected == true && push?.signingKey != nil)
    #expect(pushWarnings.isEmpty, "\(pushWarnings)")
  }

  @Test func configuredProtectedBranchesStillApplyOutsidePullRequests() throws {
    let config = "test:\n  resultCache:\n    protectedBranches: [release/*]\n"
    let (release, _) = try Self.access(["RIPPLE_BRANCH": "release/1.x"], config: config)
    #expect(release?.isProtected == true)
    let (main, _) = try Self.access(["RIPPLE_BRANCH": "main"], config: config)
    #expect(main?.isProtected == false)
  }
}
