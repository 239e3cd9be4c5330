import Foundation

/// A target's full, normal pass at one content key: what a later run may skip the target for, if it trusts
/// the writer (`TrustPolicy`). Stored as JSON inside a `RecordEnvelope`.
public struct PassRecord: Sendable, Hashable, Codable {
  public static let currentVersion = 1

  public var version: Int
  public var key: RecordKey
  /// The package's path in the repository (`.` for the root) and the test target's name.
  public var package: String
  public var target: String
  /// The commit the run tested (the head; with working-tree edits, the commit they sit on).
  public var commit: String
  public var branch: String
  /// What wrote it, for people: `rippled run 42`, a CI job's URL, `ripple test on host`.
  public var run: String
  /// Who wrote it: the signer's key name for signed records, else `user@host`.
  public var writer: String
  public var time: Date
  /// Seconds the target's tests took.
  public var duration: Double
  /// Seconds per test (`Suite/test`), for shard balancing on machines that never ran them.
  public var tests: [String: Double]
  /// `--coverage`: the key of the target's coverage blob in the same store (the SHA-256 of its bytes); nil
  /// when the run measured none. Optional, so version 1 records written before it still decode.
  public var coverage: RecordKey?

  public init(
    key: RecordKey, package: String, target: String, commit: String, branch: String, run: String,
    writer: String, time: Date, duration: Double, tests: [String: Double], coverage: RecordKey? = nil
  ) {
    self.version = Self.currentVersion
    self.key = key
    self.package = package
    self.target = target
    self.commit = commit
    self.branch = branch
    self.run = run
    self.writer = writer
    self.time = time
    self.duration = duration
    self.tests = tests
    self.coverage = coverage
  }

  /// `package:Target`, as `--targets` and reports name units.
  public var unit: String { "\(package):\(target)" }
}
