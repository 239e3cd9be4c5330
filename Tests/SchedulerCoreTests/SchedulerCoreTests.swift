import RippleConfig
import RunModel
import Testing

@testable import SchedulerCore

@Suite("scheduling rules: one running and one pending per branch, supersede, cancel, limit")
struct SchedulerCoreTests {
  let main = SchedulerCore.Lane(repository: "app", branch: "main")
  let feature = SchedulerCore.Lane(repository: "app", branch: "feature")
  let other = SchedulerCore.Lane(repository: "lib", branch: "main")

  @Test func startsAtOnceWhenALaneIsFree() {
    var core = SchedulerCore(limit: 2)
    #expect(core.submit(1, lane: main, cancelRunning: false) == [.start(1)])
    #expect(core.submit(2, lane: feature, cancelRunning: false) == [.start(2)])
    #expect(core.runningIDs == [1, 2])
  }

  @Test func secondAndThirdPushWhileRunningLeaveOnePendingForTheNewest() {
    var core = SchedulerCore(limit: 1)
    #expect(core.submit(1, lane: main, cancelRunning: false) == [.start(1)])
    #expect(core.submit(2, lane: main, cancelRunning: false) == [])
    #expect(core.submit(3, lane: main, cancelRunning: false) == [.supersedePending(2, by: 3)])
    #expect(core.queueLength == 1)
    #expect(core.finished(1) == [.start(3)])
    #expect(core.finished(3) == [])
  }

  @Test func cancelPolicyStopsTheRunningRunOnce() {
    var core = SchedulerCore(limit: 1)
    _ = core.submit(1, lane: feature, cancelRunning: true)
    #expect(core.submit(2, lane: feature, cancelRunning: true) == [.cancelRunning(1, by: 2)])
    // A third push while run 1 is still stopping: 2 is superseded, 1 is not cancelled twice.
    #expect(core.submit(3, lane: feature, cancelRunning: true) == [.supersedePending(2, by: 3)])
    #expect(core.finished(1) == [.start(3)])
  }

  @Test func globalLimitStartsOldestFirstAndNeverTwoOnOneLane() {
    var core = SchedulerCore(limit: 1)
    _ = core.submit(1, lane: main, cancelRunning: false)
    _ = core.submit(2, lane: other, cancelRunning: false)
    _ = core.submit(3, lane: main, cancelRunning: false)
    _ = core.submit(4, lane: feature, cancelRunning: false)
    // Lane main is busy until 1 ends; the oldest waiting run of a free lane is 2.
    #expect(core.finished(1) == [.start(2)])
    #expect(core.finished(2) == [.start(3)])
    #expect(core.finished(3) == [.start(4)])
  }

  @Test func aLateOlderRunLosesToTheNewerPendingOne() {
    var core = SchedulerCore(limit: 1)
    _ = core.submit(5, lane: other, cancelRunning: false)
    _ = core.submit(9, lane: main, cancelRunning: false)
    #expect(core.submit(7, lane: main, cancelRunning: false) == [.supersedePending(7, by: 9)])
  }

  @Test func drainingStartsNothingNew() {
    var core = SchedulerCore(limit: 1)
    _ = core.submit(1, lane: main, cancelRunning: false)
    _ = core.submit(2, lane: feature, cancelRunning: false)
    core.drain()
    #expect(core.finished(1) == [])
    #expect(core.queueLength == 1)
  }

  @Test func withdrawingAPendingRunFreesItsPlace() {
    var core = SchedulerCore(limit: 1)
    _ = core.submit(1, lane: main, cancelRunning: false)
    _ = core.submit(2, lane: main, cancelRunning: false)
    #expect(core.withdraw(2) == [])
    #expect(core.finished(1) == [])
    #expect(core.queueLength == 0)
  }
}

@Suite("executor helpers")
struct ExecutorHelperTests {
  @Test func thePrimaryBranchIsTheFirstPatternWithoutWildcards() {
    #expect(
      RunPlanning.primaryBranch([.init(pattern: "release/*"), .init(pattern: "main"), .init(pattern: "dev")])
        == "main")
    #expect(RunPlanning.primaryBranch([.init(pattern: "*")]) == nil)
    #expect(RunPlanning.primaryBranch([]) == nil)
  }
}
