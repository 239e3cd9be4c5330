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
