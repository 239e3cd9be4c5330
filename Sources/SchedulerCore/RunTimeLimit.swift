/// How long a run may take, and which setting says so: the `rippled.yml` entry's `runTimeout` from the start,
/// or the repository's own `daemon.runTimeout` (its `ripple.yml`) once the run has read its work tree, when
/// that one is shorter. Both count from the run's start; the scheduler enforces the one that applies, with one
/// outcome (an error) and one reason naming the setting.
package struct RunTimeLimit: Sendable, Equatable {
  package enum Setting: Sendable, Equatable {
    /// `runTimeout` of the repository's entry in `rippled.yml`.
    case daemon
    /// `daemon.runTimeout` in the repository's own `ripple.yml`.
    case repository
  }

  package var duration: Duration
  package var setting: Setting

  package init(_ duration: Duration, setting: Setting) {
    self.duration = duration
    self.setting = setting
  }

  /// What a run starts with: `rippled.yml`'s limit (the repository's is not known before its work tree is read).
  package static func daemon(_ duration: Duration) -> RunTimeLimit { RunTimeLimit(duration, setting: .daemon) }

  /// The limit once the repository's own (`nil`: it sets none) is known: the shorter; on a tie this one stays.
  package func applying(repository: Duration?) -> RunTimeLimit {
    guard let repository, repository < duration else { return self }
    return RunTimeLimit(repository, setting: .repository)
  }

  /// How much of the limit is left after `elapsed` since the run started (zero once it has passed).
  package func remaining(after elapsed: Duration) -> Duration {
    elapsed >= duration ? .zero : duration - elapsed
  }

  /// The setting, as the log and the run's record name it.
  package var settingName: String {
    switch setting {
    case .daemon: "runTimeout in rippled.yml"
    case .repository: "daemon.runTimeout in ripple.yml"
    }
  }

  /// The reason recorded for a run stopped by this limit.
  package var reason: String { "timed out after \(duration) (\(settingName)); its processes were stopped" }
}
