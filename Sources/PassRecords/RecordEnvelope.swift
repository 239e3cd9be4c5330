import Crypto
import Foundation

/// The bytes a store holds for a key: the record's JSON exactly as signed, and the signature if a trusted
/// writer made one.
///
/// The record travels as base64 of its bytes, so a reader verifies the very bytes that were signed instead
/// of a re-encoding. `format` and `version` let a reader tell a record from anything else a store returns.
public struct RecordEnvelope: Sendable, Hashable, Codable {
  public static let formatName = "ripple-pass-record"
  public static let currentVersion = 1

  public struct Signature: Sendable, Hashable, Codable {
    /// The signer's public key, base64 of its 32 raw bytes: readers look it up among theirs.
    public var publicKey: String
    /// Ed25519 over the record's bytes, base64.
    public var ed25519: String
  }

  public var format: String
  public var version: Int
  public var record: String
  public var signature: Signature?

  /// Seals `record`, signed with `signingKey` when given.
  public static func seal(_ record: PassRecord, signingKey: Curve25519.Signing.PrivateKey?) throws -> Data {
    try seal(record, format: formatName, signingKey: signingKey)
  }

  /// Seals a shared history slot (format `ripple-history`), the same way.
  public static func seal(_ record: HistoryRecord, signingKey: Curve25519.Signing.PrivateKey?) throws -> Data {
    try seal(record, format: HistoryRecord.formatName, signingKey: signingKey)
  }

  static func seal(
    _ record: some Encodable, format: String, signingKey: Curve25519.Signing.PrivateKey?
  ) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let bytes = try encoder.encode(record)
    let signature = try signingKey.map { key in
      Signature(
        publicKey: key.publicKey.rawRepresentation.base64EncodedString(),
        ed25519: try key.signature(for: bytes).base64EncodedString())
    }
    let envelope = RecordEnvelope(
      format: format, version: currentVersion, record: bytes.base64EncodedString(), signature: signature)
    return try encoder.encode(envelope)
  }
}

/// A signing key read from its variable: base64 of the 32-byte Ed25519 private key (`ripple results keygen`
/// prints one).
public enum SigningKeys {
  public static func privateKey(base64: String) -> Curve25519.Signing.PrivateKey? {
    guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32
    else { return nil }
    return try? Curve25519.Signing.PrivateKey(rawRepresentation: data)
  }

  public static func publicKey(base64: String) -> Curve25519.Signing.PublicKey? {
    guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32
    else { return nil }
    return try? Curve25519.Signing.PublicKey(rawRepresentation: data)
  }
}
