import Foundation
import RippleConfig
import RippleCore

/// Validates `test.resultCache`: `off`/`on`, or a mapping naming the store and whose records a run trusts
/// (docs/DESIGN.md, "test.resultCache").
enum ResultCacheParser {
  static let keys = [
    "store", "protocol", "rippled", "tokenEnv", "region", "endpoint", "pathStyle", "credentials", "maxSize", "timeout",
    "keyEnvironment", "publicKeys", "protectedBranches", "signingKeyEnv", "unsignedRecords",
  ]
  private static let storeForms =
    "write local, a folder (/path, ~/path, ./path), s3://bucket/prefix, bazel+https://host/path, "
    + "rippled+https://host, or an https:// URL with `protocol: bazel` or `protocol: rippled`"
  /// The keys that belong to one kind of store, and that kind's name for messages.
  private static let storeKeys: [String: String] = [
    "region": "s3", "endpoint": "s3", "pathStyle": "s3", "tokenEnv": "rippled", "protocol": "https://",
  ]

  static func parse(_ value: YAMLValue) throws -> ResultCacheConfig {
    var config = ResultCacheConfig(location: value.location)
    if case .scalar = value.node, value.tagName == .bool {
      config.enabled = try value.boolean()
      return config
    }
    if case .scalar(let scalar) = value.node, value.tagName == .str, ["on", "off"].contains(scalar.string) {
      config.enabled = scalar.string == "on"
      return config
    }
    if case .scalar = value.node, !value.isNull {
      throw value.error(
        "expected on, off or a mapping, found \(value.typeDescription)", hint: "e.g. `resultCache: {store: local}`")
    }
    var entries: [String: YAMLValue] = [:]
    for (key, child) in try value.mappingEntries(allowedKeys: keys) { entries[key] = child }
    config.store = try store(entries)
    if let size = entries["maxSize"] { config.maxSize = Int64(try size.byteSize()) }
    if let timeout = entries["timeout"] { config.timeout = try seconds(timeout) }
    if let names = entries["keyEnvironment"] { config.keyEnvironment = try keyEnvironment(names) }
    if let keys = entries["publicKeys"] { config.publicKeys = try publicKeys(keys) }
    if let branches = entries["protectedBranches"] { config.protectedBranches = try branchGlobs(branches) }
    if let variable = entries["signingKeyEnv"] { config.signingKeyVariable = try SourceParser.variableName(variable) }
    if let value = entries["unsignedRecords"] {
      guard let source = UnsignedRecordSource(rawValue: try value.string()) else {
        throw value.error(
          "expected private or any", hint: "private: only a local folder of this user's; any: every store (see docs)")
      }
      config.unsignedFrom = source
    }
    return config
  }

  // MARK: - The store

  private static func store(_ entries: [String: YAMLValue]) throws -> ResultStoreSpec {
    if entries["store"] != nil, let rippled = entries["rippled"] {
      throw rippled.error("give `store` or `rippled`, not both", hint: "e.g. `store: rippled+https://ripple.example`")
    }
    let choice: StoreChoice
    if let rippled = entries["rippled"] {
      choice = StoreChoice(
        spec: .rippled(url: try httpURL(rippled, text: try rippled.string()), tokenVariable: nil), kind: "rippled")
    } else if let store = entries["store"] {
      choice = try storeSpec(store, entries: entries)
    } else {
      choice = StoreChoice(spec: .local(path: nil), kind: "local")
    }
    let spec = choice.spec
    for (key, owner) in storeKeys.sorted(by: { $0.key < $1.key }) {
      guard let child = entries[key], owner == "https://" ? !choice.byProtocol : owner != choice.kind else { continue }
      let which = owner == "https://" ? "an https:// store URL" : "a\(owner == "s3" ? "n" : "") \(owner) store"
      throw child.error("`\(key)` applies only to \(which)", hint: "this store is \(kindDescription(choice.kind))")
    }
    switch spec {
    case .local:
      if let credentials = entries["credentials"] {
        throw credentials.error("a local store has no credentials", hint: "remove `credentials`")
      }
      return spec
    case .rippled(let url, _):
      if let credentials = entries["credentials"] {
        throw credentials.error("a rippled store takes a token", hint: "write `tokenEnv: VARIABLE` instead")
      }
      return .rippled(url: url, tokenVariable: try entries["tokenEnv"].map(SourceParser.variableName))
    case .bazelHTTP(let url, _):
      var credentials = CredentialReference.none
      if let value = entries["credentials"] {
        credentials = try SourceParser.credentials(value)
        if case .awsEnvironment = credentials {
          throw value.error(
            "AWS credentials apply to an s3 store", hint: "a Bazel cache takes bearerTokenEnv or netrc")
        }
      }
      return .bazelHTTP(url: url, credentials: credentials)
    case .s3(var location, _):
      guard let regionValue = entries["region"] else {
        throw entries["store"]!.error("an s3 store needs a `region`", hint: "e.g. `region: eu-west-1`")
      }
      location.region = try nonEmpty(regionValue)
      if let endpoint = entries["endpoint"] {
        location.endpoint = try httpURL(endpoint, text: try endpoint.string())
      } else {
        location.endpoint = "https://s3.\(location.region).amazonaws.com"
      }
      if let pathStyle = entries["pathStyle"] { location.pathStyle = try pathStyle.boolean() }
      var credentials = CredentialReference.awsEnvironment(
        accessKeyVariable: "AWS_ACCESS_KEY_ID", secretKeyVariable: "AWS_SECRET_ACCESS_KEY",
        sessionTokenVariable: "AWS_SESSION_TOKEN")
      if let value = entries["credentials"] {
        credentials = try SourceParser.credentials(value)
        guard case .awsEnvironment = credentials else {
          throw value.error(
            "an s3 store needs AWS credentials", hint: "write `credentials: {aws: {accessKeyEnv: …, secretKeyEnv: …}}`")
        }
      }
      return .s3(location, credentials: credentials)
    }
  }

  /// A store as written, before its kind's own keys: `kind` is local, s3, bazel or rippled; `byProtocol` when
  /// an https:// URL took its kind from `protocol:`.
  private struct StoreChoice {
    var spec: ResultStoreSpec
    var kind: String
    var byProtocol = false
  }

  /// `store:`'s text as a store; the URL kinds' own keys are read by `store(_:)`.
  private static func storeSpec(_ value: YAMLValue, entries: [String: YAMLValue]) throws -> StoreChoice {
    let text = try value.string()
    let lowered = text.lowercased()
    if text == "local" { return StoreChoice(spec: .local(path: nil), kind: "local") }
    if text.hasPrefix("/") || text.hasPrefix("~") || text.hasPrefix(".") {
      return StoreChoice(spec: .local(path: try value.path()), kind: "local")
    }
    if lowered.hasPrefix("s3://") {
      let rest = text.dropFirst(5)
      let bucket = String(rest.prefix { $0 != "/" })
      let prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
      let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
      guard !bucket.isEmpty else {
        throw value.error("`\(text)` names no bucket", hint: "write s3://bucket or s3://bucket/prefix")
      }
      guard bucket.allSatisfy(allowed.contains), (3...63).contains(bucket.count) else {
        throw value.error(
          "`\(bucket)` is not an S3 bucket name", hint: "3 to 63 lowercase letters, digits, `.` and `-`")
      }
      let location = S3Location(endpoint: "", bucket: bucket, key: prefix, region: "", pathStyle: false)
      return StoreChoice(spec: .s3(location, credentials: .none), kind: "s3")
    }
    for (scheme, kind) in [("bazel+", "bazel"), ("rippled+", "rippled")] where lowered.hasPrefix(scheme) {
      let url = try httpURL(value, text: String(text.dropFirst(scheme.count)))
      let spec: ResultStoreSpec =
        kind == "bazel" ? .bazelHTTP(url: url, credentials: .none) : .rippled(url: url, tokenVariable: nil)
      return StoreChoice(spec: spec, kind: kind)
    }
    if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
      let url = try httpURL(value, text: text)
      guard let protocolValue = entries["protocol"] else {
        throw value.error(
          "an http(s) store needs `protocol: bazel` or `protocol: rippled`",
          hint: "or write bazel+https://… or rippled+https://…")
      }
      switch try protocolValue.string() {
      case "bazel": return StoreChoice(spec: .bazelHTTP(url: url, credentials: .none), kind: "bazel", byProtocol: true)
      case "rippled":
        return StoreChoice(spec: .rippled(url: url, tokenVariable: nil), kind: "rippled", byProtocol: true)
      default:
        throw protocolValue.error(
          "`\(try protocolValue.string())` is not a store protocol", hint: "expected one of: bazel, rippled")
      }
    }
    // Only a URL's scheme is quoted: the rest may hold a password.
    let shown = text.contains("://") ? SourceParser.scheme(text) : text
    throw value.error("`\(shown)` is not a store", hint: storeForms)
  }

  private static func kindDescription(_ kind: String) -> String {
    switch kind {
    case "s3": "an s3 store"
    case "bazel": "a Bazel cache"
    case "rippled": "a rippled store"
    default: "a local folder"
    }
  }

  /// An http(s) URL with a host; an error quotes only its scheme.
  private static func httpURL(_ value: YAMLValue, text: String) throws -> String {
    let lowered = text.lowercased()
    guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), let components = URLComponents(string: text),
      let host = components.host, !host.isEmpty
    else {
      throw value.error(
        "`\(SourceParser.scheme(text))` is not an http(s) URL with a host", hint: "write https://host/path")
    }
    return text
  }

  // MARK: - The other keys

  /// Seconds: a number (`5`, `2.5`) or a duration (`500ms`, `30s`), more than zero and at most an hour.
  private static func seconds(_ value: YAMLValue) throws -> Double {
    let seconds: Double
    if case .scalar(let scalar) = value.node, value.tagName == .int || value.tagName == .float {
      guard let number = Double(scalar.string.filter { $0 != "_" }), number.isFinite else {
        throw value.error("`\(scalar.string)` is not a number of seconds")
      }
      seconds = number
    } else {
      let duration = try value.duration()
      seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
    guard seconds > 0, seconds <= 3600 else {
      throw value.error("a timeout must be more than 0 and at most 3600 seconds", hint: "e.g. `timeout: 10`")
    }
    return seconds
  }

  private static func keyEnvironment(_ value: YAMLValue) throws -> [String] {
    var names: [String] = []
    for element in try value.listElements() {
      let name = try element.string()
      let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
      guard let first = name.first, !first.isNumber, name.allSatisfy(allowed.contains) else {
        throw element.error(
          "`\(name)` is not an environment variable name",
          hint: "letters, digits and _, not starting with a digit, e.g. CI_SDK_VERSION")
      }
      guard !names.contains(name) else { throw element.error("`\(name)` is listed twice") }
      names.append(name)
    }
    return names
  }

  private static func publicKeys(_ value: YAMLValue) throws -> [TrustedPublicKey] {
    var keys: [TrustedPublicKey] = []
    for element in try value.listElements() {
      let entries = try element.entries(allowed: ["name", "key"], required: ["name", "key"])
      let name = try nonEmpty(entries["name"]!)
      guard !keys.contains(where: { $0.name == name }) else {
        throw entries["name"]!.error("the key name `\(name)` is used twice", hint: "give each key its own name")
      }
      let keyValue = entries["key"]!
      let text = try keyValue.string().trimmingCharacters(in: .whitespaces)
      let hint = "the raw 32-byte Ed25519 public key in base64 (44 characters)"
      guard let bytes = Data(base64Encoded: text) else {
        throw keyValue.error("the key of `\(name)` is not base64", hint: hint)
      }
      guard bytes.count == 32 else {
        throw keyValue.error("the key of `\(name)` is \(bytes.count) bytes, not an Ed25519 public key's 32", hint: hint)
      }
      keys.append(TrustedPublicKey(name: name, base64: text))
    }
    return keys
  }

  private static func branchGlobs(_ value: YAMLValue) throws -> [String] {
    try value.stringList().enumerated().map { index, pattern in
      if let problem = GlobSyntax.problem(in: pattern) {
        let at = (try? value.listElements()).flatMap { $0.indices.contains(index) ? $0[index] : nil } ?? value
        throw at.error("invalid branch glob: \(problem)", hint: "e.g. main or release/*")
      }
      return pattern
    }
  }

  private static func nonEmpty(_ value: YAMLValue) throws -> String {
    let text = try value.string()
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw value.error("the value is empty") }
    return text
  }
}
