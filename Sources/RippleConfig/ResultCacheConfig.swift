/// `test.resultCache:` — where pass records are kept and whose records a run believes (docs/DESIGN.md,
/// "Pass records"). `test.resultCache: off` sets `enabled` to false.
public struct ResultCacheConfig: Sendable, Hashable {
  public var enabled: Bool
  public var store: ResultStoreSpec
  /// The local folder's bound (bytes); the least recently used records go first.
  public var maxSize: Int64
  /// Seconds a shared store has for one call before it counts as down (a warning, and the tests run).
  public var timeout: Double
  /// Environment variables whose values are part of every key (`test.keyEnvironment`), e.g. `CI_SDK_VERSION`.
  public var keyEnvironment: [String]
  /// Ed25519 public keys whose signatures make a record trusted by any branch's run.
  public var publicKeys: [TrustedPublicKey]
  /// Branches (globs, `release/*`) whose runs accept only signed records and whose records are signed; nil:
  /// the remote's default branch (`origin/HEAD`), else `main` and `master`. A pull request's run is never one.
  public var protectedBranches: [String]?
  /// The variable holding the signing key (base64 of the 32-byte Ed25519 private key): set only for
  /// trusted writers (rippled's protected-branch runs, a CI job on a protected ref).
  public var signingKeyVariable: String
  /// Where an unprotected branch believes unsigned records and history of its own from: `.privateStore` (a
  /// local folder only this user can write; the default) or `.anyStore` (also a shared store: then any job
  /// that can write the store can make this branch skip a test).
  public var unsignedFrom: UnsignedRecordSource = .privateStore
  public var location: ConfigLocation?

  public static let defaultMaxSize: Int64 = 1 << 30
  public static let defaultSigningKeyVariable = "RIPPLE_RESULT_SIGNING_KEY"

  public init(
    enabled: Bool = true, store: ResultStoreSpec = .local(path: nil), maxSize: Int64 = ResultCacheConfig.defaultMaxSize,
    timeout: Double = 10, keyEnvironment: [String] = [], publicKeys: [TrustedPublicKey] = [],
    protectedBranches: [String]? = nil,
    signingKeyVariable: String = ResultCacheConfig.defaultSigningKeyVariable, location: ConfigLocation? = nil
  ) {
    self.enabled = enabled
    self.store = store
    self.maxSize = maxSize
    self.timeout = timeout
    self.keyEnvironment = keyEnvironment
    self.publicKeys = publicKeys
    self.protectedBranches = protectedBranches
    self.signingKeyVariable = signingKeyVariable
    self.location = location
  }
}

/// A store a run reads and writes records in.
public enum ResultStoreSpec: Sendable, Hashable {
  /// A folder on this machine; nil: `<Ripple's cache folder>/results`.
  case local(path: String?)
  /// rippled's record API (`GET/PUT {url}/api/v1/records/<key>`), with a token from a variable.
  case rippled(url: String, tokenVariable: String?)
  /// An S3 bucket (`s3://bucket/prefix`), signed with SigV4 like `assets` S3 sources.
  case s3(S3Location, credentials: CredentialReference)
  /// Bazel's HTTP remote cache protocol (`{url}/ac/<sha256>`, `{url}/cas/<sha256>`): bazel-remote, or
  /// nginx with WebDAV.
  case bazelHTTP(url: String, credentials: CredentialReference)
}

/// One entry of `test.resultCache.publicKeys`.
public struct TrustedPublicKey: Sendable, Hashable {
  /// A name for messages ("ci-main").
  public var name: String
  /// Base64 of the raw 32-byte Ed25519 public key.
  public var base64: String

  public init(name: String, base64: String) {
    self.name = name
    self.base64 = base64
  }
}

extension ResultCacheConfig {
  /// The variables holding this config's secrets: the signing key and the store's credentials (its token,
  /// its AWS keys). Ripple removes them from every process it starts (`ChildEnvironment`).
  public var secretVariables: Set<String> {
    var names: Set<String> = [signingKeyVariable]
    switch store {
    case .local:
      break
    case .rippled(_, let tokenVariable):
      if let tokenVariable { names.insert(tokenVariable) }
    case .s3(_, let credentials), .bazelHTTP(_, let credentials):
      names.formUnion(credentials.variables)
    }
    return names
  }
}

extension CredentialReference {
  /// The variables this reference reads a secret from (a netrc file's path is not one).
  public var variables: [String] {
    switch self {
    case .none, .netrc: []
    case .bearerTokenEnvironment(let variable): [variable]
    case .awsEnvironment(let access, let secret, let token): [access, secret] + (token.map { [$0] } ?? [])
    }
  }
}

/// `test.resultCache.unsignedRecords`: which stores' unsigned records a branch's run believes.
public enum UnsignedRecordSource: String, Sendable, Hashable {
  /// Only a local folder no other account can write (`private`, the default): store write access is not push
  /// access, so a shared store's unsigned records prove nothing.
  case privateStore = "private"
  /// Any store (`any`): whoever can write the store can make an unprotected branch skip a test.
  case anyStore = "any"
}
