import Crypto
import Foundation
import Testing

@testable import PassRecords

/// The one reader of a signing key's text (the key variable and rippled's `records.signingKeyFile`): base64 of
/// the 32 raw bytes on one line; anything else says what it holds instead (issue 52).
@Suite struct SigningKeyTextTests {
  let key = Curve25519.Signing.PrivateKey()
  var secret: String { key.rawRepresentation.base64EncodedString() }
  var publicKey: String { key.publicKey.rawRepresentation.base64EncodedString() }

  @Test func theKeyAloneIsReadWithOrWithoutItsNewline() throws {
    for text in [secret, secret + "\n", "  " + secret + "\r\n"] {
      let read = try SigningKeys.parsePrivateKey(text).get()
      #expect(read.rawRepresentation == key.rawRepresentation)
    }
  }

  @Test func eachWrongTextSaysWhatItHolds() {
    let printed = "# The secret: only for jobs of protected branches\nRIPPLE_RESULT_SIGNING_KEY=\(secret)\n"
    let cases: [(String, SigningKeyProblem)] = [
      ("", .empty),
      ("\n  \n", .empty),
      (printed, .keygenOutput),
      ("RIPPLE_RESULT_SIGNING_KEY=\(secret)", .keygenOutput),
      ("key: \(publicKey)\n", .publicKey),
      ("test:\n  resultCache:\n    publicKeys:\n      - name: ci\n        key: \(publicKey)\n", .publicKey),
      ("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI\n-----END PRIVATE KEY-----\n", .pem),
      ("\(secret)\n\(secret)\n", .severalLines(2)),
      ("not a key at all!", .notBase64),
      (Data(repeating: 1, count: 64).base64EncodedString(), .wrongLength(64)),
    ]
    for (text, problem) in cases {
      #expect(SigningKeys.parsePrivateKey(text) == .failure(problem), "\(text.debugDescription)")
    }
    #expect(SigningKeyProblem.publicKey.description.contains("public key"))
    #expect(SigningKeyProblem.keygenOutput.description.contains("ripple results keygen --out FILE"))
    #expect(SigningKeyProblem.wrongLength(64).description.contains("64 bytes"))
  }
}

extension Result where Success == Curve25519.Signing.PrivateKey, Failure == SigningKeyProblem {
  fileprivate static func == (result: Self, other: Self) -> Bool {
    switch (result, other) {
    case (.failure(let a), .failure(let b)): a == b
    case (.success(let a), .success(let b)): a.rawRepresentation == b.rawRepresentation
    default: false
    }
  }
}
