import Crypto
import Foundation

/// Whether a write may replace what a store holds at a key: no write lowers trust (docs/DESIGN.md, "Pass
/// records", "No write lowers trust"). Pure: the bytes there and the bytes to write in, a decision out.
///
/// - A record with a signature that verifies (by any key: the one its envelope names) is never replaced by one
///   without such a signature.
/// - A record signed by a trusted key (`trustedKeys`; nil: any key) is never replaced by one not signed by a
///   trusted key.
/// - A protected branch's record is never replaced by another branch's. Only protected branches' runs sign, so a
///   protected branch's record is a record signed by a trusted key whose branch matches `protectedBranches`
///   (nil: every such signed record): an unsigned record's branch is whatever its writer wrote, and protecting it
///   would let anyone keep a branch from writing its own records. For the shared history the scope stands for the
///   branch (the `protected` scope is a protected branch's).
///
/// Anything else (nothing there, bytes that are no envelope, an unsigned record, a forged signature) is
/// replaced. The worst a refused write costs is a target tested again; a replaced signed record would cost
/// every protected branch's run a re-test, and an unsigned one over a signed one erases the team's memory.
public struct RecordReplacement: Sendable {
  /// Base64 of the raw public keys whose signatures count as trusted; nil: any key whose signature verifies.
  public var trustedKeys: Set<String>?
  /// Globs of protected branches; nil: the branch of every record signed by a trusted key is protected.
  public var protectedBranches: [String]?

  public init(trustedKeys: Set<String>?, protectedBranches: [String]?) {
    self.trustedKeys = trustedKeys
    self.protectedBranches = protectedBranches
  }

  /// With a run's trusted keys (a trust policy's list).
  public init(trusting keys: [Curve25519.Signing.PublicKey], protectedBranches: [String]?) {
    self.init(
      trustedKeys: Set(keys.map { $0.rawRepresentation.base64EncodedString() }), protectedBranches: protectedBranches)
  }

  public enum Decision: Sendable, Equatable {
    case replace
    /// The record there stays; `reason` says why, for a note.
    case keep(reason: String)
  }

  public func decide(existing: Data?, replacement: Data) -> Decision {
    guard let existing, let old = Standing(existing) else { return .replace }
    guard let oldSigner = old.signer else { return .replace }
    let new = Standing(replacement)
    guard let newSigner = new?.signer else {
      return .keep(reason: "a signed record is never replaced by an unsigned one")
    }
    guard isTrusted(oldSigner) else { return .replace }
    guard isTrusted(newSigner) else {
      return .keep(reason: "a record signed by a trusted key is never replaced by one signed by another key")
    }
    if let owner = old.owner, isProtected(owner, format: old.format), new?.owner != owner || new?.format != old.format {
      return .keep(reason: "\(owner)'s signed record is never replaced by another branch's")
    }
    return .replace
  }

  private func isTrusted(_ key: String) -> Bool { trustedKeys.map { $0.contains(key) } ?? true }

  private func isProtected(_ owner: String, format: String) -> Bool {
    if format == HistoryRecord.formatName { return owner == "protected" }
    return protectedBranches.map { BranchPattern.matches(owner, $0) } ?? true
  }

  /// What a decision needs of an envelope: its format, the key whose signature verifies over its record bytes,
  /// and the record's branch (a pass record) or scope (a history slot).
  struct Standing {
    var format: String
    var signer: String?
    var owner: String?

    init?(_ data: Data) {
      guard let envelope = try? JSONDecoder().decode(RecordEnvelope.self, from: data),
        let bytes = Data(base64Encoded: envelope.record)
      else { return nil }
      format = envelope.format
      if let signature = envelope.signature, let key = SigningKeys.publicKey(base64: signature.publicKey),
        let raw = Data(base64Encoded: signature.ed25519), key.isValidSignature(raw, for: bytes)
      {
        signer = key.rawRepresentation.base64EncodedString()
      }
      let fields = try? JSONDecoder().decode(Owner.self, from: bytes)
      owner = format == HistoryRecord.formatName ? fields?.scope : fields?.branch
    }

    private struct Owner: Decodable {
      var branch: String?
      var scope: String?
    }
  }
}
