import Git

/// The branch a run belongs to: an explicit one, `RIPPLE_BRANCH`, the CI's variable (a pull request's
/// source branch first), else the branch HEAD is on; `(detached)` when nothing says.
enum RunBranch {
  static let variables = [
    "RIPPLE_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "BUILDKITE_BRANCH",
  ]

  static func resolve(explicit: String?, environment: [String: String], repository: GitRepository) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    for name in variables { if let value = environment[name], !value.isEmpty { return value } }
    return (try? repository.currentBranch()) ?? "(detached)"
  }

  /// The CI job's page when the environment names one.
  static func jobURL(_ environment: [String: String]) -> String? {
    if let url = environment["BUILDKITE_BUILD_URL"], !url.isEmpty { return url }
    if let url = environment["CI_JOB_URL"], !url.isEmpty { return url }
    if let server = environment["GITHUB_SERVER_URL"], let repository = environment["GITHUB_REPOSITORY"],
      let run = environment["GITHUB_RUN_ID"]
    {
      return "\(server)/\(repository)/actions/runs/\(run)"
    }
    return nil
  }
}

extension RunBranch {
  /// Whether the CI says this job runs for a pull or merge request: GitHub Actions (`GITHUB_HEAD_REF`, a
  /// `pull_request*` event), GitLab (`CI_MERGE_REQUEST_SOURCE_BRANCH_NAME`, `CI_MERGE_REQUEST_IID`), Buildkite
  /// (`BUILDKITE_PULL_REQUEST` other than `false`). Such a run is never a protected branch's, whatever its
  /// branch is named: a fork's pull request from a branch named `main` is not main (docs/DESIGN.md, "Pass
  /// records").
  static func isPullRequest(_ environment: [String: String]) -> Bool {
    func set(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
    if set("GITHUB_HEAD_REF") || (environment["GITHUB_EVENT_NAME"] ?? "").hasPrefix("pull_request") { return true }
    if set("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") || set("CI_MERGE_REQUEST_IID") { return true }
    if let buildkite = environment["BUILDKITE_PULL_REQUEST"], !buildkite.isEmpty, buildkite != "false" { return true }
    return false
  }

  /// `test.resultCache.protectedBranches` when it is not given: the remote's default branch (the target of
  /// `origin/HEAD`); without it `main` and `master` (`GitRepository.defaultBranch`: only the one of `origin/main`,
  /// `origin/master` when the clone has neither branch locally).
  static func defaultProtectedBranches(_ repository: GitRepository) -> [String] {
    let fallback = ["main", "master"]
    guard let name = try? repository.defaultBranch().name, name.hasPrefix("origin/") else { return fallback }
    let branch = String(name.dropFirst("origin/".count))
    return branch.isEmpty ? fallback : [branch]
  }
}
