/// The forges rippled posts commit statuses to.
public enum ForgeProvider: String, Sendable, Hashable, CaseIterable {
  case github
  case gitlab
  case gitea
}

/// `status:` of a `rippled.yml` repository: where each run's result is posted as a commit status.
public struct CommitStatusSettings: Sendable, Hashable {
  public var provider: ForgeProvider
  /// The API root: `https://api.github.com`, `https://gitlab.example.com/api/v4`,
  /// `https://gitea.example.com/api/v1`. https, except on loopback.
  public var api: String
  /// `owner/name` (GitHub, Gitea); a project id or `group/project` path (GitLab).
  public var repository: String
  /// A file holding the API token; never logged.
  public var tokenFile: String
  /// The status' name on the forge.
  public var context: String

  public init(
    provider: ForgeProvider, api: String, repository: String, tokenFile: String, context: String = "ripple"
  ) {
    self.provider = provider
    self.api = api
    self.repository = repository
    self.tokenFile = tokenFile
    self.context = context
  }
}
