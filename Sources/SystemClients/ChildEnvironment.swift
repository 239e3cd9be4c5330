import RippleCore

/// The variables holding Ripple's own secrets (the pass records' signing key, a result store's
/// credentials) never reach a process Ripple starts: builds, tests, `swift test list`, `generate:`
/// commands, manifest evaluation, coverage tools, checks (docs/DESIGN.md, "Secrets and child processes").
public enum ChildEnvironment {
  /// Withheld from every child whatever the config says (also before it is read): the default signing key
  /// variable. A store's credentials are withheld by the config that names them (`ResultCacheConfig
  /// .secretVariables`): an `s3` store's default `AWS_*` variables only when the store is one, so a project's
  /// own tests that need AWS keys keep them unless the same variables are the store's.
  public static let defaultSecretNames: Set<String> = ["RIPPLE_RESULT_SIGNING_KEY"]

  /// `requested` (a request's variables, nil removing one) with every name of `names` removed: inherited
  /// or set by the request itself (a `generate:` command's `environment:` list names variables to pass).
  public static func scrubbed(_ requested: [String: String?], removing names: some Sequence<String>) -> [String:
    String?]
  {
    var result = requested
    for name in names where !name.isEmpty { result[name] = .some(nil) }
    return result
  }

  /// An environment (this process's, a report's) without the variables of `names`.
  public static func scrubbed(_ environment: [String: String], removing names: some Sequence<String>) -> [String:
    String]
  {
    var result = environment
    for name in names { result[name] = nil }
    return result
  }
}

extension ProcessClient {
  /// The same client, removing the variables of `names` from the environment of every process it starts.
  public func withholding(_ names: Set<String>) -> ProcessClient {
    guard !names.isEmpty else { return self }
    let base = self
    @Sendable func scrub(_ request: ProcessRequest) -> ProcessRequest {
      var request = request
      request.environment = ChildEnvironment.scrubbed(request.environment, removing: names)
      return request
    }
    return ProcessClient(
      run: { try await base.run(scrub($0)) },
      runStreaming: { request, onLine in try await base.runStreaming(scrub(request), onLine) })
  }
}
