import Foundation
import TestSupport
import Testing

/// TestSupport's bounded poll and process check, which the integration suites' waits are built on.
@Suite struct PollTests {
  /// The sleep overruns the deadline (as a late-resumed sleep does in a loaded run); the condition became true
  /// meanwhile, so the last look at the deadline reports it instead of a timeout.
  @Test func aConditionThatHoldsOnlyAfterTheDeadlineIsNotATimeout() async {
    let start = ContinuousClock.now
    let held = await poll(every: .milliseconds(50), timeout: .milliseconds(20)) {
      ContinuousClock.now - start >= .milliseconds(40)
    }
    #expect(held)
  }

  @Test func aConditionThatNeverHoldsIsATimeout() async {
    var looks = 0
    let held = await poll(every: .milliseconds(5), timeout: .milliseconds(30)) {
      looks += 1
      return false
    }
    #expect(!held)
    #expect(looks >= 2, "looked in the loop and once more at the deadline")
  }

  @Test func aRunningProcessHasNotEndedAndAKilledOneHas() async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sleep")
    process.arguments = ["30"]
    try process.run()
    let pid = process.processIdentifier
    #expect(!processHasEnded(pid))
    kill(pid, SIGKILL)
    #expect(await poll(timeout: .seconds(30)) { processHasEnded(pid) })
    process.waitUntilExit()
    #expect(processHasEnded(pid))
  }
}
