import RippleCore

/// Errors of the orchestration layer: each a sentence the user can act on.
public enum RippleKitError: RippleError {
  case unknownTarget(String)
  /// `ripple test --targets` named units this analysis does not select.
  case targetsNotSelected([String])

  public var category: ErrorCategory { .usage }

  public var description: String {
    switch self {
    case .unknownTarget(let name):
      "no affected target is named `\(name)`; run `ripple affected` to list them, or qualify it as `package/dir:\(name)`."
    case .targetsNotSelected(let ids):
      "--targets names \(ids.joined(separator: ", ")), which this analysis does not select: run the job with the "
        + "plan's base, head, config and selection options (a generated pipeline passes them), or check the "
        + "spelling (`package:Name`, `package:*`; `ripple test --dry-run` lists the selection)."
    }
  }
}
