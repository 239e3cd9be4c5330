import Foundation

/// How one test ended in a run, as the store keeps it for flake rates (docs/DESIGN.md, "Flaky tests and
/// quarantine"). Skipped tests are not kept: they did not run.
public struct TestOutcome: Codable, Sendable, Hashable {
  public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
    case passed, failed
    /// Failed, then passed on a retry.
    case flaky
    /// Failed, contained by `test.quarantine`.
    case quarantined
  }

  /// Package directory relative to the repo root.
  public var package: String
  /// `Target.Suite/name`.
  public var test: String
  public var kind: Kind
  /// For flaky, failed and quarantined tests: the first failure, `File.swift:12: message`.
  public var failure: String?

  public init(package: String, test: String, kind: Kind, failure: String? = nil) {
    self.package = package
    self.test = test
    self.kind = kind
    self.failure = failure
  }
}

/// A test that was flaky in a repository's recent runs, with its flake rate (flaky runs / runs).
public struct FlakyTest: Codable, Sendable, Hashable {
  public var package: String
  /// `Target.Suite/name`.
  public var test: String
  public var runs: Int
  public var flakyRuns: Int
  public var firstSeen: Date
  public var lastSeen: Date
  /// The run it was last flaky in, and what failed there first.
  public var lastRun: Int64
  public var lastFailure: String?

  public init(
    package: String, test: String, runs: Int, flakyRuns: Int, firstSeen: Date, lastSeen: Date, lastRun: Int64,
    lastFailure: String? = nil
  ) {
    self.package = package
    self.test = test
    self.runs = runs
    self.flakyRuns = flakyRuns
    self.firstSeen = firstSeen
    self.lastSeen = lastSeen
    self.lastRun = lastRun
    self.lastFailure = lastFailure
  }

  public var rate: Double { runs == 0 ? 0 : Double(flakyRuns) / Double(runs) }
}
