/// How a path changed between two states of a repository.
public enum ChangeStatus: String, Sendable, Codable, Hashable, CaseIterable {
  case added
  case modified
  case deleted
  case renamed
  case copied
  case typeChanged = "typechange"
}

/// One changed path, relative to the repository root, with `/` separators.
///
/// A rename carries both paths: `path` is the new one and `oldPath` the old one; both count as changed.
public struct ChangedFile: Sendable, Codable, Hashable, Comparable {
  public var path: String
  public var status: ChangeStatus
  public var oldPath: String?

  public init(path: String, status: ChangeStatus, oldPath: String? = nil) {
    self.path = path
    self.status = status
    self.oldPath = oldPath
  }

  /// Every path this change touches: the new path, and for renames and copies the old one too.
  public var touchedPaths: [String] {
    if let oldPath, oldPath != path, status == .renamed { return [oldPath, path] }
    return [path]
  }

  public static func < (lhs: ChangedFile, rhs: ChangedFile) -> Bool {
    (lhs.path, lhs.oldPath ?? "") < (rhs.path, rhs.oldPath ?? "")
  }
}
