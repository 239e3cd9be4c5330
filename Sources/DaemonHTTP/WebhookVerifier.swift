import Crypto
import Foundation

/// GitHub's `X-Hub-Signature-256`: `sha256=` + hex HMAC-SHA256 of the raw body under the shared secret.
enum WebhookVerifier {
  /// True only for a well-formed header whose MAC matches. The comparison is constant-time (swift-crypto's
  /// `isValidAuthenticationCode`), so the answer time does not leak how much of a forged MAC was right.
  static func verify(signatureHeader: String?, body: [UInt8], secret: [UInt8]) -> Bool {
    guard !secret.isEmpty, let header = signatureHeader?.trimmingCharacters(in: .whitespaces),
      header.hasPrefix("sha256="), let mac = hexBytes(header.dropFirst(7)), mac.count == 32
    else { return false }
    return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: body, using: SymmetricKey(data: secret))
  }

  /// The header a sender computes (tests, and anyone scripting a delivery).
  static func signature(body: [UInt8], secret: [UInt8]) -> String {
    let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: secret))
    return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
  }

  private static func hexBytes(_ text: Substring) -> [UInt8]? {
    guard text.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count / 2)
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2)
      guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return bytes
  }
}

/// The parts of a GitHub push (or ping) delivery the daemon uses to pick repositories.
struct WebhookPayload: Decodable {
  struct Repository: Decodable {
    var clone_url: String?
    var ssh_url: String?
    var html_url: String?
    var git_url: String?
    var full_name: String?
  }
  var ref: String?
  var repository: Repository?

  /// Every URL the payload names for its repository.
  var urls: [String] {
    guard let repository else { return [] }
    return [repository.clone_url, repository.ssh_url, repository.html_url, repository.git_url].compactMap { $0 }
  }
}
