import RippleConfig
import RippleCore

/// Parses an asset's `source:` and `credentials:`: each is a mapping with exactly one kind key.
enum SourceParser {
  static func source(_ value: YAMLValue) throws -> AssetSource {
    let (kind, child) = try single(value, of: ["https", "s3", "file", "lfs"], what: "source")
    switch kind {
    case "https":
      if case .mapping = child.node { return try runtimeURL(child) }
      return .https(urls: try urls(child))
    case "s3":
      return .s3(try s3(child))
    case "lfs":
      let entries = try child.entries(allowed: ["paths", "stripComponents", "flatten"], required: ["paths"])
      let paths = try entries["paths"]!.globList()
      guard !paths.isEmpty else {
        throw entries["paths"]!.error("no paths given", hint: "list the LFS files' globs, e.g. [Assets/Audio/**]")
      }
      var source = LFSSource(paths: paths)
      if let strip = entries["stripComponents"] { source.stripComponents = Int(try strip.integer(in: 0...100)) }
      if let flatten = entries["flatten"] { source.flatten = try flatten.boolean() }
      return .lfs(source)
    default:
      let path = try child.string()
      guard !path.isEmpty else { throw child.error("the path is empty") }
      return .file(path: path)
    }
  }

  /// `https: {urlEnv: NAME}` or `https: {urlCommand: [argv…]}` (or `{url: …}`, the literal form): one of them.
  private static func runtimeURL(_ value: YAMLValue) throws -> AssetSource {
    let (kind, child) = try single(value, of: ["url", "urlEnv", "urlCommand"], what: "URL source")
    switch kind {
    case "url":
      return .https(urls: try urls(child))
    case "urlEnv":
      return .runtimeURL(.environment(variable: try variableName(child)))
    default:
      let argv = try child.stringList()
      guard let first = argv.first, !first.isEmpty else {
        throw child.error("the command is empty", hint: "e.g. [heroku, config:get, AUDIO_URL, -a, my-app]")
      }
      return .runtimeURL(.command(argv))
    }
  }

  /// One URL or a list of mirrors, each http(s).
  private static func urls(_ child: YAMLValue) throws -> [String] {
    let urls = try child.stringList()
    guard !urls.isEmpty else { throw child.error("no URL given", hint: "list one or more mirror URLs") }
    for (index, url) in urls.enumerated() {
      let lowered = url.lowercased()
      guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), url.count > 8 else {
        let at = urls.count == 1 ? child : (try child.listElements())[index]
        // Only the scheme is quoted: the rest of a URL may hold a password (`https://user:pw@host`).
        throw at.error("`\(Self.scheme(url))` is not an http(s) URL", hint: "write https://host/path")
      }
    }
    return urls
  }

  private static func s3(_ value: YAMLValue) throws -> S3Location {
    let keys = ["endpoint", "bucket", "key", "region", "addressing"]
    let entries = try value.entries(allowed: keys, required: ["endpoint", "bucket", "key", "region"])
    var pathStyle = false
    if let addressing = entries["addressing"] {
      switch try addressing.string() {
      case "path": pathStyle = true
      case "virtual": pathStyle = false
      default:
        throw addressing.error("\(addressing.typeDescription) is not an addressing style", hint: "path or virtual")
      }
    }
    let endpointValue = entries["endpoint"]!
    let endpoint = try endpointValue.string()
    guard endpoint.lowercased().hasPrefix("https://") || endpoint.lowercased().hasPrefix("http://") else {
      throw endpointValue.error(
        "`\(Self.scheme(endpoint))` is not an http(s) URL", hint: "e.g. https://s3.eu-west-1.amazonaws.com")
    }
    return S3Location(
      endpoint: endpoint, bucket: try nonEmpty(entries["bucket"]!), key: try nonEmpty(entries["key"]!),
      region: try nonEmpty(entries["region"]!), pathStyle: pathStyle)
  }

  static func credentials(_ value: YAMLValue) throws -> CredentialReference {
    let (kind, child) = try single(value, of: ["bearerTokenEnv", "netrc", "aws"], what: "credentials")
    switch kind {
    case "bearerTokenEnv":
      return .bearerTokenEnvironment(variable: try variableName(child))
    case "netrc":
      if case .scalar = child.node, child.tagName == .bool {
        guard try child.boolean() else {
          throw child.error("`netrc: false` means no credentials", hint: "remove `credentials` instead")
        }
        return .netrc(path: nil)
      }
      return .netrc(path: try nonEmpty(child))
    default:
      let keys = ["accessKeyEnv", "secretKeyEnv", "sessionTokenEnv"]
      let entries = try child.entries(allowed: keys, required: ["accessKeyEnv", "secretKeyEnv"])
      return .awsEnvironment(
        accessKeyVariable: try variableName(entries["accessKeyEnv"]!),
        secretKeyVariable: try variableName(entries["secretKeyEnv"]!),
        sessionTokenVariable: try entries["sessionTokenEnv"].map(variableName))
    }
  }

  /// An environment variable name (the config never holds the secret itself).
  static func variableName(_ value: YAMLValue) throws -> String {
    let name = try value.string()
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
    guard let first = name.first, !first.isNumber, name.allSatisfy(allowed.contains) else {
      throw value.error(
        "`\(name)` is not an environment variable name",
        hint: "name the variable that holds the secret (letters, digits, _), never the secret itself")
    }
    return name
  }

  /// `ftp://user:pw@host/x` → `ftp://…`; text without a scheme → `…`.
  static func scheme(_ url: String) -> String {
    guard let end = url.range(of: "://") else { return "…" }
    return url[..<end.upperBound] + "…"
  }

  private static func nonEmpty(_ value: YAMLValue) throws -> String {
    let text = try value.string()
    guard !text.isEmpty else { throw value.error("the value is empty") }
    return text
  }

  /// A mapping with exactly one of `kinds` as its key.
  private static func single(_ value: YAMLValue, of kinds: [String], what: String) throws -> (String, YAMLValue) {
    let entries = try value.entries(allowed: kinds, required: [])
    guard entries.count == 1, let (kind, child) = entries.first else {
      throw value.error(
        entries.isEmpty ? "no \(what) given" : "give one \(what), not \(entries.count)",
        hint: "one of: " + kinds.joined(separator: ", "))
    }
    return (kind, child)
  }
}
