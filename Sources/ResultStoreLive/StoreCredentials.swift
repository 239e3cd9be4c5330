import AssetFetch
import Foundation
import RippleConfig

/// Reads the values a `CredentialReference` names, for a store; the values never reach a message.
enum StoreCredentials {
  /// The `Authorization` header for an HTTP store (bearer token or netrc login) and the values to scrub.
  static func authorization(
    _ reference: CredentialReference, host: String, store: String, environment: [String: String]
  ) throws(ResultStoreSetupError) -> (header: String?, secrets: [String]) {
    switch reference {
    case .none:
      return (nil, [])
    case .bearerTokenEnvironment(let variable):
      let token = try value(of: variable, store: store, environment: environment, what: "a bearer token")
      return ("Bearer \(token)", [token])
    case .netrc(let path):
      let file = CredentialResolver.netrcPath(path, environment: environment)
      guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
      else {
        throw ResultStoreSetupError(
          store: store, message: "needs a login from the netrc file \(file), which does not exist or cannot be read")
      }
      guard let entry = Netrc(parsing: text).entry(forHost: host), let login = entry.login,
        let password = entry.password
      else {
        throw ResultStoreSetupError(
          store: store, message: "the netrc file \(file) has no login and password for \(host)")
      }
      let encoded = Data("\(login):\(password)".utf8).base64EncodedString()
      return ("Basic \(encoded)", [password, encoded])
    case .awsEnvironment:
      throw ResultStoreSetupError(
        store: store, message: "AWS credentials only apply to an s3 store; use a bearer token or netrc credentials")
    }
  }

  /// AWS keys for an S3 store; nil for `.none` (a public bucket, requests unsigned).
  static func aws(_ reference: CredentialReference, store: String, environment: [String: String])
    throws(ResultStoreSetupError) -> AWSCredentials?
  {
    switch reference {
    case .none:
      return nil
    case .awsEnvironment(let accessVariable, let secretVariable, let tokenVariable):
      let access = try value(of: accessVariable, store: store, environment: environment, what: "the AWS access key")
      let secret = try value(of: secretVariable, store: store, environment: environment, what: "the AWS secret key")
      let token = tokenVariable.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : $0 }
      return AWSCredentials(accessKey: access, secretKey: secret, sessionToken: token)
    case .bearerTokenEnvironment, .netrc:
      throw ResultStoreSetupError(
        store: store,
        message: "an s3 store needs AWS credentials (access key and secret variables), not bearer or netrc")
    }
  }

  /// The value of `variable`, which must be set and not empty.
  static func value(of variable: String, store: String, environment: [String: String], what: String)
    throws(ResultStoreSetupError) -> String
  {
    guard let value = environment[variable], !value.isEmpty else {
      throw ResultStoreSetupError(
        store: store, message: "needs \(what) from the environment variable \(variable), which is not set")
    }
    return value
  }
}
