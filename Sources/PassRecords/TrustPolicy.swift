import Crypto
import Foundation
import RippleCore

/// Which records a run believes (docs/DESIGN.md, "Pass records"), designed against cache poisoning
/// (CVE-2025-36852, "CREEP"): anyone who can write to the store, a pull request's job included, may put
/// any bytes at any key, so nothing about a record is believed because of where it was found.
///
/// - A record signed by one of the listed public keys is believed by every run: only trusted writers
///   (rippled's protected-branch runs, a CI job on a protected ref) hold the private key.
/// - A run of a protected branch believes nothing else.
/// - A run of another branch also believes unsigned records of its own branch, but only from a store whose
///   writers are that branch's (`believesUnsigned`: a local folder only this user can write, or a store the
///   team declared so, `unsignedRecords: any`): write access to a shared store is not push access.
/// - Whatever fails to parse, is another format or version, names another key or target, was written
///   more than `allowedClockSkew` in the future, or carries a signature that does not verify with a listed
///   key, is ignored with a reason (a warning for the user), never believed.
public struct TrustPolicy: Sendable {
  public var trustedKeys: [(name: String, key: Curve25519.Signing.PublicKey)]
  public var branch: String
  public var branchIsProtected: Bool
  public var now: Date
  /// Whether unsigned records (and history) of the run's own branch may be believed from this store; nil: yes.
  /// Otherwise the reason they are not, said with each ignored record.
  public var unsignedRefused: String?
  public static let allowedClockSkew: TimeInterval = 300

  public init(
    trustedKeys: [(name: String, key: Curve25519.Signing.PublicKey)], branch: String, branchIsProtected: Bool,
    now: Date, unsignedRefused: String? = nil
  ) {
    self.trustedKeys = trustedKeys
    self.branch = branch
    self.branchIsProtected = branchIsProtected
    self.now = now
    self.unsignedRefused = unsignedRefused
  }

  public enum Verdict: Sendable, Equatable {
    /// `signer`: the listed key's name; nil for an unsigned record of the run's own branch.
    case trusted(PassRecord, signer: String?)
    case ignored(reason: String)
  }

  /// What to make of `data`, found at `key` for `unit` (`package:Target`).
  public func judge(_ data: Data, key: RecordKey, unit: String) -> Verdict {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let envelope = try? decoder.decode(RecordEnvelope.self, from: data),
      envelope.format == RecordEnvelope.formatName
    else { return .ignored(reason: "not a pass record") }
    guard envelope.version == RecordEnvelope.currentVersion else {
      return .ignored(
        reason: "pass record format version \(envelope.version), this Ripple reads \(RecordEnvelope.currentVersion)")
    }
    guard let bytes = Data(base64Encoded: envelope.record),
      let record = try? decoder.decode(PassRecord.self, from: bytes)
    else { return .ignored(reason: "a pass record that does not parse") }
    guard record.version == PassRecord.currentVersion else {
      return .ignored(reason: "pass record version \(record.version), this Ripple reads \(PassRecord.currentVersion)")
    }
    guard record.key == key else {
      return .ignored(reason: "a pass record for another key (\(record.key.hex.prefix(12)))")
    }
    guard record.unit == unit else {
      return .ignored(reason: "a pass record for another target (\(TerminalText.quoted(record.unit)))")
    }
    guard record.time.timeIntervalSince(now) <= Self.allowedClockSkew else {
      return .ignored(
        reason: "a pass record written in the future (\(ISO8601DateFormatter().string(from: record.time)))")
    }
    if let signature = envelope.signature {
      guard
        let trusted = trustedKeys.first(where: { $0.key.rawRepresentation.base64EncodedString() == signature.publicKey }
        )
      else { return .ignored(reason: "a pass record signed by a key not in test.resultCache.publicKeys") }
      guard let raw = Data(base64Encoded: signature.ed25519), trusted.key.isValidSignature(raw, for: bytes) else {
        return .ignored(reason: "a pass record whose signature does not verify (key \(trusted.name))")
      }
      return .trusted(record, signer: trusted.name)
    }
    guard !branchIsProtected else {
      return .ignored(
        reason: "an unsigned pass record (\(TerminalText.quoted(branch)) is protected: only signed records count)")
    }
    guard record.branch == branch else {
      return .ignored(reason: "an unsigned pass record of another branch (\(TerminalText.quoted(record.branch)))")
    }
    if let refused = unsignedRefused { return .ignored(reason: "an unsigned pass record (\(refused))") }
    return .trusted(record, signer: nil)
  }
}

extension TrustPolicy {
  public enum HistoryVerdict: Sendable, Equatable {
    case trusted(HistoryRecord, signer: String?)
    case ignored(reason: String)
  }

  /// What to make of `data`, found at slot `slot` of `scope` (`HistoryRecord.key`). The pass records' rules:
  /// the protected scope is believed only when signed by a listed key; a branch's own scope also unsigned, by
  /// a run of that branch; nothing that names another repository, scope or slot, or that was written in the
  /// future. So a pull request can neither skew another branch's shards nor hide a flaky test from it.
  public func judgeHistory(_ data: Data, namespace: String, scope: String, slot: Int) -> HistoryVerdict {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let envelope = try? decoder.decode(RecordEnvelope.self, from: data),
      envelope.format == HistoryRecord.formatName
    else { return .ignored(reason: "not a shared history record") }
    guard envelope.version == RecordEnvelope.currentVersion, let bytes = Data(base64Encoded: envelope.record),
      let record = try? decoder.decode(HistoryRecord.self, from: bytes),
      record.version == HistoryRecord.currentVersion
    else { return .ignored(reason: "a shared history record this Ripple cannot read") }
    guard record.namespace == namespace, record.scope == scope, record.slot == slot else {
      return .ignored(
        reason:
          "a shared history record of another place (\(TerminalText.quoted(record.namespace)) \(TerminalText.quoted(record.scope)))"
      )
    }
    guard record.time.timeIntervalSince(now) <= Self.allowedClockSkew else {
      return .ignored(reason: "a shared history record written in the future")
    }
    if let signature = envelope.signature {
      guard let signer = listedSigner(of: signature, over: bytes) else {
        return .ignored(reason: "a shared history record whose signature is not of a listed key")
      }
      return .trusted(record, signer: signer)
    }
    guard scope == HistoryRecord.scope(branch: branch, protected: false), !branchIsProtected else {
      return .ignored(reason: "an unsigned shared history record of \(scope): only signed ones count there")
    }
    if let refused = unsignedRefused {
      return .ignored(reason: "an unsigned shared history record of \(scope) (\(refused))")
    }
    return .trusted(record, signer: nil)
  }
}

extension TrustPolicy {
  /// The name of the listed key whose signature `signature` is, over `bytes`; nil when it is of no listed key or
  /// does not verify.
  func listedSigner(of signature: RecordEnvelope.Signature, over bytes: Data) -> String? {
    guard
      let trusted = trustedKeys.first(where: { $0.key.rawRepresentation.base64EncodedString() == signature.publicKey }),
      let raw = Data(base64Encoded: signature.ed25519), trusted.key.isValidSignature(raw, for: bytes)
    else { return nil }
    return trusted.name
  }
}

/// `protectedBranches` globs, as rippled's branch rules read them (RippleCore's `Glob`: `*` within a path
/// segment, `**` across them).
public enum BranchPattern {
  public static func matches(_ branch: String, _ patterns: [String]) -> Bool {
    patterns.contains { Glob($0).matches(branch) }
  }
}
