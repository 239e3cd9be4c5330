import PackageModel

/// Reads `Package.resolved` files (versions 1, 2 and 3) into pins.
///
/// Each pin's text is `<version>@<revision>`, `branch <name>@<revision>`, or the bare revision, so that
/// any change of what is checked out is a difference.
public enum ResolvedFile {
  public static func parse(_ bytes: [UInt8], path: String) throws -> ResolvedPins {
    func invalid(_ reason: String) -> PackageGraphError { .invalidResolvedFile(path: path, reason: reason) }
    let document: JSONValue
    do {
      document = try JSONValue.parse(bytes)
    } catch {
      throw invalid("it is not JSON")
    }
    guard case .int(let version)? = document["version"] else { throw invalid("it has no version") }
    let pins: [JSONValue]?
    switch version {
    case 1: pins = document["object"]?["pins"]?.array
    case 2, 3: pins = document["pins"]?.array
    default: throw invalid("version \(version) is not supported")
    }
    guard let pins else { throw invalid("it has no pins") }
    var result: [String: String] = [:]
    for pin in pins {
      let identity =
        pin["identity"]?.string ?? pin["repositoryURL"]?.string.map(PackageIdentity.identity(ofLocation:))
      guard let identity, let state = pin["state"] else { throw invalid("a pin has no identity or state") }
      result[identity] = text(of: state)
    }
    return ResolvedPins(pins: result)
  }

  static func text(of state: JSONValue) -> String {
    let revision = state["revision"]?.string
    let pinned: String? =
      if let version = state["version"]?.string {
        version
      } else if let branch = state["branch"]?.string {
        "branch " + branch
      } else {
        nil
      }
    switch (pinned, revision) {
    case (let pinned?, let revision?): return pinned + "@" + revision
    case (let pinned?, nil): return pinned
    case (nil, let revision?): return revision
    case (nil, nil): return ""
    }
  }
}

/// SwiftPM's package identity rules.
public enum PackageIdentity {
  /// The identity of a URL or path: its last path component, without `.git`, lowercased.
  public static func identity(ofLocation location: String) -> String {
    var last = location.split(separator: "/").last.map(String.init) ?? location
    if last.hasSuffix(".git") { last.removeLast(4) }
    return last.lowercased()
  }
}
