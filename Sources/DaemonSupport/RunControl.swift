import RippleCore
import RunModel

/// What the API, the sources and the canaries may ask of the scheduler: the interface, so that each is tested in
/// process (`live(_:)` is in Daemon, beside the Scheduler).
package struct RunControl: Sendable {
  /// Records and schedules a run; nil when the store refused it (the daemon is then unhealthy).
  package var submit: @Sendable (NewRun) async -> RunRecord?
  /// Cancels a queued or running run; false when it is neither.
  package var cancel: @Sendable (Int64) async -> Bool

  package init(
    submit: @escaping @Sendable (NewRun) async -> RunRecord?, cancel: @escaping @Sendable (Int64) async -> Bool
  ) {
    self.submit = submit
    self.cancel = cancel
  }

  /// Reports the test that reaches it (and refuses): for routes that must not schedule anything.
  package static let failing = RunControl(
    submit: { run in unimplemented("RunControl", "submit \(run)", placeholder: nil) },
    cancel: { id in unimplemented("RunControl", "cancel run \(id)", placeholder: false) })
}
