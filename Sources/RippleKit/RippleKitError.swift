import RippleCore

/// Errors of the orchestration layer: each a sentence the user can act on.
public enum RippleKitError: RippleError {
  case noDefaultBranch(underlying: String)
  case bareRepository(path: String)
  case unknownTarget(String)

  public var category: ErrorCategory {
    switch self {
    case .noDefaultBranch, .unknownTarget: .usage
    case .bareRepository: .environment
    }
  }

  public var description: String {
    switch self {
    case .noDefaultBranch(let underlying):
      "could not find the default branch to compare with (tried origin/HEAD, main, master): \(underlying). "
        + "Pass --base REV, or run `git remote set-head origin --auto`."
    case .bareRepository(let path):
      "\(path) is a bare repository: Ripple needs a working tree with the packages checked out."
    case .unknownTarget(let name):
      "no affected target is named `\(name)`; run `ripple affected` to list them."
    }
  }
}
