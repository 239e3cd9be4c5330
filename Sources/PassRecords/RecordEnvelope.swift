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
    try? parsePrivateKey(base64).get()
  }

  /// The one reader of a signing key's text, for the variable (`RIPPLE_RESULT_SIGNING_KEY`) and for
  /// rippled's `records.signingKeyFile` alike: base64 of the 32 raw bytes of an Ed25519 private key, on one
  /// line (surrounding white space and a trailing newline are ignored). `ripple results keygen --out FILE`
  /// writes exactly this. The failure says what the text is instead, so the message can name the fix.
  ///
  /// A public key is also 32 bytes of base64: written bare, it cannot be told from a private key by its
  /// bytes; written as `ripple results keygen` prints it (`key: …`, a `publicKeys:` block), it is recognised.
  public static func parsePrivateKey(_ text: String) -> Result<Curve25519.Signing.PrivateKey, SigningKeyProblem> {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return .failure(.empty) }
    let lines = trimmed.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    if lines.contains(where: { $0.hasPrefix("-----BEGIN") }) { return .failure(.pem) }
    if lines.contains(where: { line in
      line.hasPrefix("RIPPLE_RESULT_SIGNING_KEY=") || line.hasPrefix("# The secret")
    }) {
      return .failure(.keygenOutput)
    }
    if lines.contains(where: { line in
      line.hasPrefix("key:") || line.hasPrefix("publicKeys:") || line.hasPrefix("- name:")
        || line.hasPrefix("- {name:")
    }) {
      return .failure(.publicKey)
    }
    guard lines.count == 1 else { return .failure(.severalLines(lines.count)) }
    guard let data = Data(base64Encoded: trimmed) else { return .failure(.notBase64) }
    guard data.count == 32 else { return .failure(.wrongLength(data.count)) }
    guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: data) else { return .failure(.notBase64) }
    return .success(key)
  }

  public static func publicKey(base64: String) -> Curve25519.Signing.PublicKey? {
    guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32
    else { return nil }
    return try? Curve25519.Signing.PublicKey(rawRepresentation: data)
  }
}

/// Why a text is not a signing key (`SigningKeys.parsePrivateKey`): each says what the text holds instead.
public enum SigningKeyProblem: Error, Sendable, Hashable, CustomStringConvertible {
  case empty
  case keygenOutput
  case publicKey
  case pem
  case severalLines(Int)
  case notBase64
  case wrongLength(Int)

  public var description: String {
    switch self {
    case .empty: "is empty"
    case .keygenOutput:
      "holds the text `ripple results keygen` prints (comments, `RIPPLE_RESULT_SIGNING_KEY=`, ripple.yml lines), "
        + "not the key alone; write a key file with `ripple results keygen --out FILE`"
    case .publicKey:
      "holds a public key (the ripple.yml `publicKeys` entry), not the private key; the private half is the file "
        + "`ripple results keygen --out FILE` wrote"
    case .pem:
      "holds a PEM block; a signing key is base64 of the 32 raw bytes of an Ed25519 private key, on one line "
        + "(`ripple results keygen --out FILE` writes one)"
    case .severalLines(let count):
      "holds \(count) lines; a signing key is one line: base64 of the 32 raw bytes of an Ed25519 private key "
        + "(`ripple results keygen --out FILE` writes one)"
    case .notBase64:
      "is not base64; a signing key is base64 of the 32 raw bytes of an Ed25519 private key "
        + "(`ripple results keygen --out FILE` writes one)"
    case .wrongLength(let count):
      "decodes to \(count) bytes; an Ed25519 private key is 32 (`ripple results keygen --out FILE` writes one)"
    }
  }
}
