import Foundation

/// "evaluating 12/40 manifests" on stderr while a cold run waits for `swift package dump-package`, on a
/// terminal only: redirected stderr (CI logs, `2> file`) gets nothing.
public enum EvaluationProgress {
  /// A progress callback for `RippleServices`, or nil when stderr is not a terminal.
  public static func terminal() -> (@Sendable (Int, Int) -> Void)? {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    return { done, total in
      guard total > 0 else { return }
      // Carriage return and erase-line: one line that updates, removed when the batch is done.
      let text = done < total ? "\r\u{1B}[K" + line(done: done, total: total) : "\r\u{1B}[K"
      FileHandle.standardError.write(Data(text.utf8))
    }
  }

  /// The line shown for `done` of `total`.
  static func line(done: Int, total: Int) -> String {
    "evaluating \(done)/\(total) manifests"
  }
}
