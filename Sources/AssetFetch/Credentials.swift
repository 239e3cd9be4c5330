import Foundation
import RippleConfig

/// Credential values read from the places a `CredentialReference` names. Never printed:
/// `secrets` lists them so error texts can be scrubbed.
enum ResolvedCredentials: Sendable {
  case none
  /// The complete `Authorization` header value (`Bearer …` or `Basic …`).
  case authorization(String, secrets: [String])
  case aws(AWSCredentials)

  var secrets: [String] {
    switch self {
    case .none: []
    case .authorization(_, let secrets): secrets
    case .aws(let aws): [aws.secretKey, aws.sessionToken].compactMap { $0 }
    }
  }
}

package struct AWSCredentials: Sendable, Hashable {
  package var accessKey: String
  package var secretKey: String
  package var sessionToken: String?

  package init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
    self.accessKey = accessKey
    self.secretKey = secretKey
    self.sessionToken = sessionToken
  }
}

package enum CredentialResolver {
  /// Reads the values for `reference`; `host` picks the netrc entry.
  /// Throws `.missingCredentials` (unset variable, no netrc entry) or `.invalidSource`.
  static func resolve(
    _ reference: CredentialReference, host: String?, assetID: String, environment: [String: String]
  ) throws(FetchError) -> ResolvedCredentials {
    switch reference {
    case .none:
      return .none

    case .bearerTokenEnvironment(let variable):
      guard let token = environment[variable], !token.isEmpty else {
        throw FetchError(
          .missingCredentials, assetID: assetID,
          "asset '\(assetID)' needs a bearer token from the environment variable \(variable), which is not set; "
            + "export it, or run without private assets (placeholders are installed instead)")
      }
      return .authorization("Bearer \(token)", secrets: [token])

    case .netrc(let path):
      let file = netrcPath(path, environment: environment)
      guard let data = FileManager.default.contents(atPath: file),
        let text = String(data: data, encoding: .utf8)
      else {
        throw FetchError(
          .missingCredentials, assetID: assetID,
          "asset '\(assetID)' needs a login from the netrc file \(file), which does not exist or cannot be read; "
            + "create it (mode 0600) with a `machine \(host ?? "<host>") login … password …` entry")
      }
      guard let host, let entry = Netrc(parsing: text).entry(forHost: host), let login = entry.login,
        let password = entry.password
      else {
        throw FetchError(
          .missingCredentials, assetID: assetID,
          "asset '\(assetID)': the netrc file \(file) has no login and password for \(host ?? "this source"); "
            + "add a `machine \(host ?? "<host>") login … password …` entry")
      }
      let encoded = Data("\(login):\(password)".utf8).base64EncodedString()
      return .authorization("Basic \(encoded)", secrets: [password, encoded])

    case .awsEnvironment(let accessVariable, let secretVariable, let tokenVariable):
      let missing = [accessVariable, secretVariable].filter { (environment[$0] ?? "").isEmpty }
      guard missing.isEmpty, let access = environment[accessVariable], let secret = environment[secretVariable]
      else {
        throw FetchError(
          .missingCredentials, assetID: assetID,
          "asset '\(assetID)' needs AWS credentials from \(missing.joined(separator: " and ")), "
            + "which \(missing.count == 1 ? "is" : "are") not set; export \(missing.count == 1 ? "it" : "them"), "
            + "or run without private assets (placeholders are installed instead)")
      }
      let token = tokenVariable.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : $0 }
      return .aws(AWSCredentials(accessKey: access, secretKey: secret, sessionToken: token))
    }
  }

  /// The explicit path (`~` expanded), else `$NETRC`, else `~/.netrc`.
  package static func netrcPath(_ explicit: String?, environment: [String: String]) -> String {
    let home = environment["HOME"] ?? NSHomeDirectory()
    let path = explicit ?? environment["NETRC"].flatMap { $0.isEmpty ? nil : $0 } ?? "~/.netrc"
    if path == "~" { return home }
    if path.hasPrefix("~/") { return home + path.dropFirst(1) }
    return path
  }
}
