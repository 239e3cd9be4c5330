import Foundation
import RippleConfig

/// Where an S3 object lives over HTTP: the request URL and the canonical URI that gets signed.
package struct S3ObjectAddress: Sendable, Equatable {
  package var url: String
  package var canonicalURI: String
  /// `s3://bucket/key`, for messages and `FetchResult.origin`.
  package var displayName: String

  /// Path-style `scheme://host[:port]/bucket/key` or virtual-host `scheme://bucket.host[:port]/key`.
  /// Returns nil for an endpoint without scheme or host.
  package init?(_ location: S3Location) {
    guard let components = URLComponents(string: location.endpoint), let scheme = components.scheme?.lowercased(),
      let host = components.host, !host.isEmpty
    else { return nil }
    let port = components.port.map { ":\($0)" } ?? ""
    let key = location.key.hasPrefix("/") ? String(location.key.dropFirst()) : location.key
    let encodedKey = SigV4Signer.encodePath(key)
    if location.pathStyle {
      canonicalURI = "/\(SigV4Signer.encodeSegment(location.bucket))/\(encodedKey)"
      url = "\(scheme)://\(host)\(port)\(canonicalURI)"
    } else {
      canonicalURI = "/\(encodedKey)"
      url = "\(scheme)://\(location.bucket).\(host)\(port)\(canonicalURI)"
    }
    displayName = "s3://\(location.bucket)/\(key)"
  }
}

/// The `<Code>` and `<Message>` of an S3 error body (`<Error><Code>AccessDenied</Code>…`).
package struct S3ErrorBody: Sendable, Equatable {
  package var code: String
  package var message: String?

  package init?(_ body: String) {
    guard let code = Self.element("Code", in: body) else { return nil }
    self.code = code
    message = Self.element("Message", in: body)
  }

  package var isAccessProblem: Bool {
    [
      "AccessDenied", "SignatureDoesNotMatch", "InvalidAccessKeyId", "InvalidToken", "ExpiredToken",
      "AllAccessDisabled", "AccountProblem", "InvalidSecurity",
    ].contains(code)
  }

  package var isNotFound: Bool { ["NoSuchKey", "NoSuchBucket"].contains(code) }

  /// A hint for the codes people meet most.
  package var hint: String {
    switch code {
    case "SignatureDoesNotMatch": "the secret access key is wrong for this access key"
    case "InvalidAccessKeyId": "the access key id is not known to this endpoint"
    case "ExpiredToken", "InvalidToken": "the session token is expired or invalid"
    case "AccessDenied": "the credentials are not allowed to read this object"
    case "NoSuchKey": "the object key does not exist in the bucket"
    case "NoSuchBucket": "the bucket does not exist"
    default: message ?? code
    }
  }

  private static func element(_ name: String, in body: String) -> String? {
    guard let start = body.range(of: "<\(name)>"),
      let end = body.range(of: "</\(name)>", range: start.upperBound..<body.endIndex)
    else { return nil }
    return String(body[start.upperBound..<end.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
