import Foundation
import RippleCore

/// Makes the absolute paths `dump-package` prints independent of where the manifest was evaluated.
///
/// A manifest evaluated in place (working tree) and the same manifest evaluated in a scratch
/// directory (a git revision) must give equal results, or every local dependency would look changed.
/// Local dependency paths and `packageKind.root` become repo-relative (an absolute path outside the
/// repository is kept as is). Any other string mentioning the root (a setting computed from
/// `#filePath`, say) gets the root replaced by `$(REPO_ROOT)`.
struct PathNormalizer: Sendable {
  /// The root as the evaluation saw it, plus its symlink-resolved spelling when different.
  var roots: [String]

  init(roots: [String]) {
    self.roots = roots.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
  }

  static let rootPlaceholder = "$(REPO_ROOT)"

  /// `path` relative to the root, or nil when it lies outside.
  func relative(_ path: String) -> String? {
    for root in roots {
      if path == root { return "." }
      if path.hasPrefix(root + "/") { return RepoPath.normalize(String(path.dropFirst(root.count + 1))) }
    }
    return nil
  }

  /// The normalised `dump-package` document.
  func normalize(_ manifest: JSONValue) -> JSONValue {
    guard var fields = manifest.object else { return manifest }
    if let kind = fields["packageKind"] { fields["packageKind"] = relativizeEnumPaths(kind) }
    if let dependencies = fields["dependencies"]?.array {
      fields["dependencies"] = .array(dependencies.map(normalizeDependency))
    }
    return replaceRoot(in: .object(fields))
  }

  /// `{"fileSystem": [{"path": …}]}` and `{"sourceControl": [{"location": {"local": [path]}}]}`.
  private func normalizeDependency(_ dependency: JSONValue) -> JSONValue {
    guard let (name, values) = dependency.enumCase, var entry = values.first?.object else { return dependency }
    if let path = entry["path"]?.string {
      entry["path"] = .string(relative(path) ?? path)
    }
    if let location = entry["location"] {
      entry["location"] = relativizeEnumPaths(location)
    }
    return .object([name: .array([.object(entry)] + values.dropFirst())])
  }

  /// `{"case": ["/abs/path"]}` → `{"case": ["rel/path"]}`.
  private func relativizeEnumPaths(_ value: JSONValue) -> JSONValue {
    guard let (name, values) = value.enumCase else { return value }
    let mapped = values.map { item -> JSONValue in
      guard let path = item.string, let relative = relative(path) else { return item }
      return .string(relative)
    }
    return .object([name: .array(mapped)])
  }

  private func replaceRoot(in value: JSONValue) -> JSONValue {
    switch value {
    case .string(let text):
      var result = text
      for root in roots where root != "/" && result.contains(root) {
        result = result.replacingOccurrences(of: root + "/", with: Self.rootPlaceholder + "/")
        if result == root { result = Self.rootPlaceholder }
      }
      return .string(result)
    case .array(let items): return .array(items.map(replaceRoot))
    case .object(let fields): return .object(fields.mapValues(replaceRoot))
    case .null, .bool, .int, .double: return value
    }
  }
}
