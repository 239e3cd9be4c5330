import RippleConfig
import RippleCore
import Yams

// Typed scalar readers used by the `assets:`/`secrets:` parsers; each error names the key and line.
extension YAMLValue {
  /// An integer scalar (`12`, not `"12"`), within `range`.
  func integer(in range: ClosedRange<Int64> = 0...Int64.max) throws -> Int64 {
    guard case .scalar(let scalar) = node, tagName == .int, let number = Int64(scalar.string.replacingUnderscores)
    else {
      throw error("expected a whole number, found \(typeDescription)")
    }
    guard range.contains(number) else {
      throw error("\(number) is out of range", hint: "expected \(range.lowerBound)…\(range.upperBound)")
    }
    return number
  }

  /// A boolean scalar (`true`/`false`).
  func boolean() throws -> Bool {
    guard case .scalar(let scalar) = node, tagName == .bool else {
      throw error("expected true or false, found \(typeDescription)")
    }
    return ["true", "yes", "on"].contains(scalar.string.lowercased())
  }

  /// A list of strings; a single string counts as a one-element list.
  func stringList() throws -> [String] {
    if case .scalar = node, tagName == .str { return [try string()] }
    return try listElements().map { try $0.string() }
  }

  /// A mapping whose values are scalars, e.g. `{bitrate: 64k}`.
  func stringMapping() throws -> [String: String] {
    var result: [String: String] = [:]
    for (key, value) in try mappingEntries() { result[key] = try value.scalarText() }
    return result
  }

  /// The entries of a mapping with the keys in `required` present.
  func entries(allowed: [String], required: [String]) throws -> [String: YAMLValue] {
    guard case .mapping = node else { throw error("expected a mapping, found \(typeDescription)") }
    var result: [String: YAMLValue] = [:]
    for (key, value) in try mappingEntries(allowedKeys: allowed) { result[key] = value }
    for key in required where result[key] == nil {
      throw error("missing key `\(key)`", hint: "required keys: " + required.joined(separator: ", "))
    }
    return result
  }
}

extension String {
  fileprivate var replacingUnderscores: String { filter { $0 != "_" } }
}

/// Lexical checks for a repository-relative path written in the config.
enum RelativePathRule {
  /// Why `path` is not a safe repo-relative path, or nil when it is.
  static func problem(in path: String) -> String? {
    if path.isEmpty { return "the path is empty" }
    if path.hasPrefix("/") || path.hasPrefix("~") {
      return "`\(path)` is absolute; write it relative to the repository root"
    }
    if path.contains("\\") || path.contains("\0") { return "`\(path)` contains a backslash or NUL character" }
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    if parts.contains("..") { return "`\(path)` contains `..` and could leave the repository" }
    if parts.allSatisfy({ $0 == "." }) { return "`\(path)` is the repository root itself" }
    return nil
  }

  /// `a//b/./c/` → `a/b/c`.
  static func normalized(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.joined(separator: "/")
  }
}
