import RippleCore

/// Why a directory cannot be watched: what failed, where, and what to do about it.
public struct FileWatchError: RippleError {
  /// The path that could not be watched.
  public var path: String
  /// What failed, e.g. "it does not exist".
  public var problem: String
  /// What the user can do about it.
  public var hint: String
  public var category: ErrorCategory

  init(path: String, problem: String, hint: String, category: ErrorCategory = .environment) {
    self.path = path
    self.problem = problem
    self.hint = hint
    self.category = category
  }

  public var description: String { "cannot watch \(path): \(problem). \(hint)" }
}
