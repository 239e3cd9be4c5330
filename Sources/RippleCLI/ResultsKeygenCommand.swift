import ArgumentParser
import Crypto
import Foundation

/// Makes an Ed25519 key pair: the private key for the trusted writers' secret store (protected-branch CI
/// jobs, rippled), the public key for `test.resultCache.publicKeys`.
struct ResultsKeygenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keygen",
    abstract: "Print a new signing key pair for pass records.",
    discussion: """
      The private key goes, as a secret, only to jobs of protected branches (RIPPLE_RESULT_SIGNING_KEY, or \
      the variable test.resultCache.signingKeyEnv names); the public key goes into ripple.yml. Nothing is \
      written to disk.
      """
  )

  @Option(help: "The name readers will see for records this key signs.")
  var name = "ci"

  func validate() throws {
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
      throw ValidationError("--name must be letters, digits, '-', '_' or '.' (got '\(name)').")
    }
  }

  func run() throws {
    let key = Curve25519.Signing.PrivateKey()
    print(
      """
      # The secret: only for jobs of protected branches (e.g. a CI secret named RIPPLE_RESULT_SIGNING_KEY).
      RIPPLE_RESULT_SIGNING_KEY=\(key.rawRepresentation.base64EncodedString())

      # For ripple.yml:
      test:
        resultCache:
          publicKeys:
            - name: \(name)
              key: \(key.publicKey.rawRepresentation.base64EncodedString())
      """)
  }
}
