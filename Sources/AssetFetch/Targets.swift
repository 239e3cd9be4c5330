import Foundation
import RippleConfig
import RippleCore

/// Turns a request's source and credential reference into the URLs to fetch and how to sign them.
enum Targets {
  static func make(_ request: FetchRequest, options: FetchOptions, runtime: FetchRuntime) throws(FetchError)
    -> [HTTPTarget]
  {
    let asset = request.assetID
    switch request.source {
    case .https(let urls):
      guard !urls.isEmpty else {
        throw FetchError(.invalidSource, assetID: asset, "asset '\(asset)' has no URL; add one under `urls:`")
      }
      if case .awsEnvironment = request.credentials {
        throw FetchError(
          .invalidSource, assetID: asset,
          "asset '\(asset)': AWS credentials only apply to s3 sources; use an s3 source, or bearer/netrc credentials")
      }
      // Each mirror gets the credentials for its own host (netrc); a mirror without any is tried
      // without credentials, unless no mirror has them: then they are missing.
      var firstMissing: FetchError?
      let targets = urls.map { url in
        let host = URLComponents(string: url)?.host
        var credentials = ResolvedCredentials.none
        do {
          credentials = try CredentialResolver.resolve(
            request.credentials, host: host, assetID: asset, environment: options.environment)
        } catch let error as FetchError {
          firstMissing = firstMissing ?? error
        } catch {}
        let authorization: String? = if case .authorization(let value, _) = credentials { value } else { nil }
        // A run-time link is a secret as a whole: shown by its origin, and scrubbed from any library text.
        let display = request.link.map { "\(Redaction.origin(url)) (the URL from \($0))" } ?? Redaction.url(url)
        let linkSecrets = request.link == nil ? [] : [url, Redaction.url(url), Redaction.pathAndQuery(url)]
        return HTTPTarget(
          assetID: asset, url: url, display: display,
          authorize: { headers in if let authorization { headers["Authorization"] = authorization } },
          secrets: credentials.secrets + linkSecrets)
      }
      if let firstMissing, targets.allSatisfy({ $0.secrets.isEmpty }) { throw firstMissing }
      return targets

    case .s3(let location):
      guard let address = S3ObjectAddress(location) else {
        throw FetchError(
          .invalidSource, assetID: asset,
          "asset '\(asset)': the S3 endpoint \(Redaction.url(location.endpoint)) is not a URL such as "
            + "https://s3.eu-west-1.amazonaws.com")
      }
      let credentials = try CredentialResolver.resolve(
        request.credentials, host: nil, assetID: asset, environment: options.environment)
      let display = "\(address.displayName) (\(Redaction.url(location.endpoint)))"
      switch credentials {
      case .none:
        return [HTTPTarget(assetID: asset, url: address.url, display: display, authorize: { _ in }, secrets: [])]
      case .authorization:
        throw FetchError(
          .invalidSource, assetID: asset,
          "asset '\(asset)': an s3 source needs AWS credentials (access key and secret variables), not bearer or netrc")
      case .aws(let aws):
        let signer = SigV4Signer(credentials: aws, region: location.region)
        let canonicalURI = address.canonicalURI
        let now = runtime.now
        return [
          HTTPTarget(
            assetID: asset, url: address.url, display: display,
            authorize: { headers in
              // Only `host` and the x-amz-* headers are signed; `Range` may change between attempts.
              let host = headers["Host"] ?? ""
              for (name, value) in signer.sign(canonicalURI: canonicalURI, headers: ["host": host], date: now())
              where name != "host" {
                headers[name] = value
              }
            },
            secrets: credentials.secrets)
        ]
      }

    case .runtimeURL(let source):
      // The bootstrapper resolves run-time URLs into `.https` before fetching.
      throw FetchError(
        .invalidSource, assetID: asset, "asset '\(asset)': the URL from \(source.description) was not resolved")

    case .file, .lfs:  // files are copied; LFS objects come from git-lfs (Assets/LFSStore.swift)
      return []
    }
  }
}
