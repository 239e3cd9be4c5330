/// Decides which paths a watcher looks at: the always-skipped folders, then the caller's `isIgnored`.
struct PathFilter: Sendable {
  let isIgnored: @Sendable (String, Bool) -> Bool

  /// Build output and VCS metadata churn constantly and never affect tests, so they are skipped at any depth
  /// without asking (`.git` may also be a file, in worktrees and submodules).
  static func isAlwaysSkipped(_ name: String) -> Bool {
    name == ".git" || name == ".build" || name == ".swiftpm" || name.hasPrefix(".build-") || name.hasPrefix(".build_")
  }

  /// Whether the entry `name` at `relativePath` (whose parent is already known not to be skipped) is skipped.
  func skips(_ relativePath: String, name: String, isDirectory: Bool) -> Bool {
    Self.isAlwaysSkipped(name) || isIgnored(relativePath, isDirectory)
  }
}

/// `parent/name` for relative paths, where the root is "".
func joinRelative(_ parent: String, _ name: String) -> String {
  parent.isEmpty ? name : parent + "/" + name
}

/// The absolute path of `relative` under `root` (root itself for "").
func absolutePath(_ root: String, _ relative: String) -> String {
  if relative.isEmpty { return root }
  return root == "/" ? "/" + relative : root + "/" + relative
}

/// Whether `path` is `directory` or lies below it (relative paths; "" is the root and contains everything).
func isSameOrBelow(_ path: String, _ directory: String) -> Bool {
  directory.isEmpty || path == directory || path.hasPrefix(directory + "/")
}
