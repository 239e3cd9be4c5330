/// Where Ripple is published: the one place its public address is recorded. `ripple init --ci github` names
/// the action by it (`uses: <repository>@v<version>`), and action.yml's `release-url` input defaults to its
/// releases (BuildInfoTests checks that action.yml, README.md and docs/CI.md agree with it). A fork that
/// publishes its own releases changes these two lines (and action.yml's default), nothing else.
extension BuildInfo {
  /// The GitHub repository (`owner/name`) whose action.yml and releases are Ripple's.
  public static let publishedRepository = "ripple-swift/ripple"

  /// Where release archives are downloaded from: `<base>/v<version>/ripple-<version>-linux-<arch>.tar.gz`
  /// and its `.sha256` (the assets of the GitHub release tagged `v<version>`).
  public static let releaseBaseURL = "https://github.com/\(publishedRepository)/releases/download"

  /// The action as another repository's workflow names it: this version's tag.
  public static var actionReference: String { "\(publishedRepository)@v\(version)" }
}
