import RippleCore

/// Errors of the orchestration layer: each a sentence the user can act on.
public enum RippleKitError: RippleError {
  case unknownTarget(String)

  public var category: ErrorCategory { .usage }

  public var description: String {
    switch self {
    case .unknownTarget(let name):
      "no affected target is named `\(name)`; run `ripple affected` to list them, or qualify it as `package/dir:\(name)`."
    }
  }
}
