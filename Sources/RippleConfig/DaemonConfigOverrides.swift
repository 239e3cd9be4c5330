/// `daemon:` in a repository's `ripple.yml`: settings that travel with the repository and override the
/// ones `rippled.yml` gives it (nil: keep the `rippled.yml` value).
///
/// ```yaml
/// daemon:
///   runTimeout: 45m
///   testArguments: ["-c", "release"]
///   bootstrap: false
///   coverage: true
///   retryFailed: 1
/// ```
public struct RepositoryDaemonSettings: Sendable, Hashable {
  public var runTimeout: Duration?
  public var testArguments: [String]?
  public var bootstrap: Bool?
  public var coverage: Bool?
  public var retryFailed: Int?

  public init(
    runTimeout: Duration? = nil, testArguments: [String]? = nil, bootstrap: Bool? = nil, coverage: Bool? = nil,
    retryFailed: Int? = nil
  ) {
    self.runTimeout = runTimeout
    self.testArguments = testArguments
    self.bootstrap = bootstrap
    self.coverage = coverage
    self.retryFailed = retryFailed
  }
}

extension RepositorySettings {
  /// These settings with the repository's own `daemon:` overrides applied. The repository's file comes with
  /// the branch under test, so it may only narrow what the operator's `rippled.yml` allows: a shorter
  /// `runTimeout`, `bootstrap: false`, fewer `retryFailed`; never a longer limit, never bootstrap where the
  /// operator turned it off, never more retries.
  /// `testArguments` replace the operator's: they only reach `swift build`/`swift test` inside the run. So does
  /// `coverage`, either way: it changes how the run's own tests are built and measured, inside the same sandbox
  /// and time limit, and reaches nothing the operator guards.
  public func applying(_ overrides: RepositoryDaemonSettings) -> RepositorySettings {
    var settings = self
    if let runTimeout = overrides.runTimeout { settings.runTimeout = min(settings.runTimeout, runTimeout) }
    if let testArguments = overrides.testArguments { settings.testArguments = testArguments }
    if let bootstrap = overrides.bootstrap { settings.bootstrap = settings.bootstrap && bootstrap }
    if let coverage = overrides.coverage { settings.coverage = coverage }
    // Retries hide a failure behind a pass: the branch may retry less than the operator allows, never more.
    if let retryFailed = overrides.retryFailed { settings.retryFailed = min(settings.retryFailed, retryFailed) }
    return settings
  }
}
