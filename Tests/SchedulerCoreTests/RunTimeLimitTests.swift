import Testing

@testable import SchedulerCore

/// Which of the two `runTimeout` settings bounds a run, and what its record says when it does.
@Suite struct RunTimeLimitTests {
  let daemon = RunTimeLimit.daemon(.seconds(30 * 60))

  @Test func aRunStartsWithRippledYmlsLimitAndKeepsItWhenTheRepositorySetsNone() {
    #expect(daemon == RunTimeLimit(.seconds(1800), setting: .daemon))
    #expect(daemon.applying(repository: nil) == daemon)
  }

  @Test func theRepositorysOwnLimitAppliesOnlyWhenShorter() {
    #expect(daemon.applying(repository: .seconds(300)) == RunTimeLimit(.seconds(300), setting: .repository))
    #expect(daemon.applying(repository: .seconds(3600)) == daemon, "a longer one cannot extend rippled.yml's")
    #expect(daemon.applying(repository: .seconds(1800)) == daemon, "on a tie rippled.yml's stays")
  }

  @Test func theReasonNamesTheLimitAndTheSettingItCameFrom() {
    #expect(daemon.reason == "timed out after 1800.0 seconds (runTimeout in rippled.yml); its processes were stopped")
    #expect(
      daemon.applying(repository: .milliseconds(250)).reason
        == "timed out after 0.25 seconds (daemon.runTimeout in ripple.yml); its processes were stopped")
  }

  @Test func theTimeLeftCountsFromTheRunsStartAndNeverGoesBelowZero() {
    let limit = RunTimeLimit(.seconds(300), setting: .repository)
    #expect(limit.remaining(after: .zero) == .seconds(300))
    #expect(limit.remaining(after: .seconds(120)) == .seconds(180))
    #expect(limit.remaining(after: .seconds(300)) == .zero)
    #expect(limit.remaining(after: .seconds(900)) == .zero, "already past: it ends at once")
  }
}
