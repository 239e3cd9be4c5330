import Crypto
import Foundation

/// AWS Signature Version 4, header-based, for S3 requests without query parameters: GETs (unsigned payload) and
/// PUTs (`payloadHash`: the body's SHA-256, as ResultStoreLive's S3 store sends it).
///
/// Reference: "Authenticating Requests: Using the Authorization Header (AWS Signature Version 4)"
/// in the Amazon S3 API docs; `SigV4Tests` checks the documented GET-object example.
package struct SigV4Signer: Sendable {
  package var credentials: AWSCredentials
  package var region: String
  package var service = "s3"

  package init(credentials: AWSCredentials, region: String, service: String = "s3") {
    self.credentials = credentials
    self.region = region
    self.service = service
  }

  /// The SHA-256 of an empty body, and the value S3 accepts for "the body is not signed".
  package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
  package static let unsignedPayload = "UNSIGNED-PAYLOAD"

  /// Headers to add to a request (`method`, GET unless told) of `canonicalURI` (already URI-encoded, e.g. `/bucket/my%20key`).
  ///
  /// `headers` are the other headers to sign (e.g. `host`, `range`); `host` is required.
  /// Returns them plus `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token` (with a session
  /// token) and `Authorization`.
  package func sign(
    method: String = "GET", canonicalURI: String, headers: [String: String], date: Date,
    payloadHash: String = SigV4Signer.unsignedPayload
  ) -> [String: String] {
    let (amzDate, day) = Self.timestamps(date)
    var signed: [String: String] = [:]
    for (name, value) in headers { signed[name.lowercased()] = value }
    signed["x-amz-date"] = amzDate
    signed["x-amz-content-sha256"] = payloadHash
    if let token = credentials.sessionToken { signed["x-amz-security-token"] = token }

    let names = signed.keys.sorted()
    let canonicalHeaders = names.map { "\($0):\(Self.trimmed(signed[$0]!))\n" }.joined()
    let signedHeaders = names.joined(separator: ";")
    let canonicalRequest = [method, canonicalURI, "", canonicalHeaders, signedHeaders, payloadHash]
      .joined(separator: "\n")

    let scope = "\(day)/\(region)/\(service)/aws4_request"
    let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
      .joined(separator: "\n")

    var key = SymmetricKey(data: Data("AWS4\(credentials.secretKey)".utf8))
    for part in [day, region, service, "aws4_request"] {
      key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
    }
    let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))

    signed["authorization"] =
      "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
    return signed
  }

  /// URI-encodes each path segment per SigV4 (unreserved `A-Za-z0-9-._~` kept, the rest `%XX`),
  /// keeping `/` between segments. S3 object keys are encoded once.
  package static func encodePath(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).map { encodeSegment(String($0)) }
      .joined(separator: "/")
  }

  package static func encodeSegment(_ segment: String) -> String {
    var result = ""
    for byte in segment.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        result.append(Character(UnicodeScalar(byte)))
      default:
        result += String(format: "%%%02X", byte)
      }
    }
    return result
  }

  /// `20130524T000000Z` and `20130524` in UTC.
  static func timestamps(_ date: Date) -> (amzDate: String, day: String) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let day = String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
    return (day + String(format: "T%02d%02d%02dZ", c.hour!, c.minute!, c.second!), day)
  }

  /// Header values: trimmed, inner runs of spaces collapsed to one.
  private static func trimmed(_ value: String) -> String {
    value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
  }

  private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
    digest.map { String(format: "%02x", $0) }.joined()
  }
}
