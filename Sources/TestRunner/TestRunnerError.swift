import RippleCore

/// Everything that can make `ripple test` fail, each case a sentence a user can act on.
public enum TestRunnerError: RippleError, Equatable {
  /// `--shard` was not `I/N` with 1 ≤ I ≤ N.
  case invalidShard(String, reason: String)
  /// `swift` could not be found or started.
  case swiftNotFound(executable: String)
  case couldNotStart(command: String, reason: String)
  /// At least one package failed to build (package paths).
  case buildFailed(packages: [String])
  /// At least one test failed (count).
  case testsFailed(count: Int, packages: [String])
  /// A package had selected test targets but its filter matched no test.
  case noTestsRan(package: String, filter: String)
  /// `--fail-on-flaky`: tests that passed only on a retry (count).
  case flakyTests(count: Int)
  /// `--require-all`: selected test targets that no run on this host can test.
  case notRunHere([NotRunTarget])
  /// Interrupted (Ctrl-C or SIGTERM) before the run finished.
  case cancelled
  /// The work directory for xunit files could not be created.
  case workDirectory(path: String, reason: String)

  public var category: ErrorCategory {
    switch self {
    case .invalidShard: .usage
    case .swiftNotFound, .couldNotStart, .workDirectory: .environment
    case .buildFailed, .testsFailed, .noTestsRan, .flakyTests, .notRunHere, .cancelled: .checkFailed
    }
  }

  public var description: String {
    switch self {
    case .invalidShard(let text, let reason):
      "--shard \(text) is not valid: \(reason); write it as I/N with 1 ≤ I ≤ N, for example --shard 2/4."
    case .swiftNotFound(let executable):
      "`\(executable)` was not found, so nothing could be built or tested; install a Swift toolchain "
        + "(https://swift.org/install) and put its `usr/bin` on PATH, or point Ripple at `swift` explicitly."
    case .couldNotStart(let command, let reason):
      "Could not start `\(command)`: \(reason)."
    case .buildFailed(let packages):
      "The tests of \(Self.list(packages)) could not be built; fix the compiler errors shown above."
    case .testsFailed(let count, let packages):
      "\(count) test\(count == 1 ? "" : "s") failed in \(Self.list(packages)); see the failures above."
    case .noTestsRan(let package, let filter):
      "No test ran in package \(package) although test targets were selected: the filter \(filter) matched "
        + "nothing; check that the selected test targets exist and contain tests."
    case .flakyTests(let count):
      "--fail-on-flaky: \(count) test\(count == 1 ? "" : "s") passed only on a retry; see the flaky tests above."
    case .notRunHere(let targets):
      "--require-all: \(targets.count) selected test target\(targets.count == 1 ? "" : "s") cannot run on this host: "
        + targets.map(\.sentence).joined(separator: "; ") + "."
    case .cancelled:
      "The test run was interrupted; the results of what finished were still reported."
    case .workDirectory(let path, let reason):
      "Could not create the work directory \(path) for test results: \(reason)."
    }
  }

  static func list(_ packages: [String]) -> String {
    let named = packages.map { $0 == "." ? "the root package" : "package \($0)" }
    return named.joined(separator: ", ")
  }
}
