import Crypto
import Foundation
import RippleCore

/// Where the coverage map of one test target, made at one commit, is kept (docs/DESIGN.md, "Below the target").
///
/// The map itself is a blob in the same store, named by the SHA-256 of its bytes (`map`); this record, stored at
/// `storeKey(commit:unit:run:)` and sealed like a pass record (signed on protected branches), says which commit and
/// content key it was made at. A reader trusts the record by `TrustPolicy.judgeMap`, then the blob by its digest:
/// a store writer can neither plant a map nor change one a trusted writer made.
public struct MapRecord: Sendable, Hashable, Codable {
  public static let currentVersion = 1
  public static let formatName = "ripple-coverage-map"

  public var version: Int
  /// The package's path (`.` for the root) and the test target's name.
  public var package: String
  public var target: String
  /// The test run (`test.runs`) it was made in; nil: the default run.
  public var run: String?
  /// The commit whose tree the mapping run built.
  public var commit: String
  /// The target's content key then.
  public var key: RecordKey
  /// The SHA-256 of the map's bytes: its name in the store.
  public var map: RecordKey
  public var tests: Int
  public var branch: String
  public var writer: String
  public var time: Date

  public init(
    package: String, target: String, run: String?, commit: String, key: RecordKey, map: RecordKey, tests: Int,
    branch: String, writer: String, time: Date
  ) {
    self.version = Self.currentVersion
    self.package = package
    self.target = target
    self.run = run
    self.commit = commit
    self.key = key
    self.map = map
    self.tests = tests
    self.branch = branch
    self.writer = writer
    self.time = time
  }

  public var unit: String { "\(package):\(target)" }

  /// Where the record of `package:target`'s map at `commit` is: a digest of all three, so that no commit or
  /// target name ever reaches a store as a path.
  public static func storeKey(commit: String, package: String, target: String, run: String?) -> RecordKey {
    var hasher = SHA256()
    for part in [formatName, commit, package, target, run ?? ""] { hasher.update(data: Array(part.utf8) + [0]) }
    return RecordKey(hex: Hex.string(hasher.finalize()))!
  }

  /// The name of a map's bytes in the store.
  public static func blobKey(of data: Data) -> RecordKey {
    RecordKey(hex: Hex.string(SHA256.hash(data: data)))!
  }
}

extension RecordEnvelope {
  /// Seals a coverage map's record (format `ripple-coverage-map`), the way pass records are.
  public static func seal(_ record: MapRecord, signingKey: Curve25519.Signing.PrivateKey?) throws -> Data {
    try seal(record, format: MapRecord.formatName, signingKey: signingKey)
  }
}

extension TrustPolicy {
  public enum MapVerdict: Sendable, Equatable {
    case trusted(MapRecord, signer: String?)
    case ignored(reason: String)
  }

  /// What to make of `data`, found at `MapRecord.storeKey(commit:…)`. A map decides which tests are skipped, so
  /// it is believed as a pass record is: signed by a listed key; or, on an unprotected branch, unsigned from a
  /// store whose unsigned writers are believed, of the run's own branch — or of any branch when
  /// `storeIsOnlyThisUsers` (a local folder only this user writes: the base a branch compares with is usually
  /// another branch's commit, mapped by the same user). Nothing that names another commit, target or run, or was
  /// written in the future.
  public func judgeMap(
    _ data: Data, commit: String, package: String, target: String, run: String?, storeIsOnlyThisUsers: Bool = false
  ) -> MapVerdict {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let envelope = try? decoder.decode(RecordEnvelope.self, from: data),
      envelope.format == MapRecord.formatName
    else { return .ignored(reason: "not a coverage map record") }
    guard envelope.version == RecordEnvelope.currentVersion, let bytes = Data(base64Encoded: envelope.record),
      let record = try? decoder.decode(MapRecord.self, from: bytes), record.version == MapRecord.currentVersion
    else { return .ignored(reason: "a coverage map record this Ripple cannot read") }
    guard record.commit == commit, record.package == package, record.target == target, record.run == run else {
      return .ignored(
        reason: "a coverage map record of another place (\(TerminalText.quoted(record.unit)) at "
          + "\(record.commit.prefix(12)))")
    }
    guard record.time.timeIntervalSince(now) <= Self.allowedClockSkew else {
      return .ignored(reason: "a coverage map record written in the future")
    }
    if let signature = envelope.signature {
      guard let signer = listedSigner(of: signature, over: bytes) else {
        return .ignored(reason: "a coverage map record whose signature is not of a listed key")
      }
      return .trusted(record, signer: signer)
    }
    guard !branchIsProtected else {
      return .ignored(
        reason: "an unsigned coverage map (\(TerminalText.quoted(branch)) is protected: only signed maps count)")
    }
    if let refused = unsignedRefused { return .ignored(reason: "an unsigned coverage map (\(refused))") }
    guard record.branch == branch || storeIsOnlyThisUsers else {
      return .ignored(
        reason: "an unsigned coverage map of another branch (\(TerminalText.quoted(record.branch))): from a shared "
          + "store only signed maps count across branches")
    }
    return .trusted(record, signer: nil)
  }
}
