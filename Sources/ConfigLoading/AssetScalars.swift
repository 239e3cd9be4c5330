import RippleConfig
import RippleCore

/// The scalars the asset, transform, secret and generate parsers share: ids, repository destinations and
/// glob lists (docs/DESIGN.md, section 4).
extension YAMLValue {
  /// Ids name files (receipts, journals, staging folders): letters, digits, `.`, `_`, `-`.
  func assetIdentifier() throws -> String {
    let id = try string()
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    guard let first = id.first, first.isLetter || first.isNumber, id.allSatisfy(allowed.contains), id.count <= 100
    else {
      throw error(
        "`\(id)` is not a valid id", hint: "use letters, digits, `.`, `_` and `-`, starting with a letter or digit")
    }
    return id
  }

  /// A repo-relative folder or file Ripple writes: inside the repository, outside the protected paths.
  func repoDestination() throws -> String {
    let path = try string()
    if let problem = RelativePathRule.problem(in: path) {
      throw error(problem, hint: "destinations must stay inside the repository")
    }
    let normalized = RelativePathRule.normalized(path)
    if let problem = ProtectedPaths.problem(in: normalized) {
      throw error(problem, hint: "install into a folder of its own, such as a target's resource folder")
    }
    return normalized
  }

  func globList() throws -> [Glob] {
    try listElements().map { element in
      let pattern = try element.string()
      if let problem = GlobSyntax.problem(in: pattern) {
        throw element.error("invalid glob: \(problem)", hint: "write `[[]` to match a literal `[`")
      }
      return Glob(pattern)
    }
  }
}
