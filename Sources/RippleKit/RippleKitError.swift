import RippleCore

/// Errors of the orchestration layer: each a sentence the user can act on.
public enum RippleKitError: RippleError {
  case unknownTarget(String, suggestion: String? = nil)
  /// `--explain` of a target that exists but no change reaches.
  case notAffected(String, changedFiles: Int)
  /// `ripple test --targets` named units this analysis does not select.
  case targetsNotSelected([String], suggestions: [String: String] = [:])
  /// `--explain-key` with pass records off (`--no-cache-results`, `test.resultCache: off`).
  case passRecordsOff
  /// `--explain-key` named a target this run does not key (not selected, or a whole package run).
  case keyTargetNotSelected(String, known: [String])
  case ambiguousTarget(String, candidates: [String])
  /// `--explain TARGET/TEST` named a test of no selected target, or one its target's map does not know.
  case testNotExplained(String, detail: String)

  public var category: ErrorCategory { .usage }

  public var description: String {
    switch self {
    case .unknownTarget(let name, let suggestion):
      "no target is named `\(name)`"
        + (suggestion.map { "; did you mean `\($0)`?" }
          ?? "; run `ripple graph` to list them, or qualify it as `package/dir:\(name)`.")
    case .notAffected(let name, let count):
      "`\(name)` is not affected: no changed file reaches it (\(count) changed file\(count == 1 ? "" : "s"); "
        + "`ripple affected` lists what they reach)."
    case .targetsNotSelected(let ids, let suggestions):
      "--targets names \(ids.joined(separator: ", ")), which this analysis does not select"
        + (suggestions.isEmpty
          ? ""
          : " (did you mean \(ids.compactMap { suggestions[$0] }.map { "`\($0)`" }.joined(separator: ", "))?)")
        + ": run the job with the "
        + "plan's base, head, config and selection options (a generated pipeline passes them), or check the "
        + "spelling (`package:Name`, `package:*`; `ripple test --dry-run` lists the selection)."
    case .testNotExplained(let test, let detail):
      "--explain names `\(test)`: \(detail)."
    case .passRecordsOff:
      "--explain-key needs pass records, which are off for this run (--no-cache-results, RIPPLE_NO_CACHE_RESULTS "
        + "or test.resultCache: off)."
    case .keyTargetNotSelected(let target, let known):
      "--explain-key names `\(target)`, which this run does not key; "
        + (known.isEmpty
          ? "it keys no target (nothing selected, or `--all` without --shard runs whole packages)."
          : "it keys \(known.joined(separator: ", ")).")
    case .ambiguousTarget(let target, let candidates):
      "`\(target)` names more than one target: \(candidates.joined(separator: ", ")); qualify it as `package:Name`."
    }
  }
}
