import DaemonSupport

extension RunControl {
  /// The scheduler behind the routes, the sources and the canaries.
  static func live(_ scheduler: Scheduler) -> RunControl {
    RunControl(submit: { await scheduler.submit($0) }, cancel: { await scheduler.cancel($0) })
  }
}
