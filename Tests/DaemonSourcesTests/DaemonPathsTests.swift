import Foundation
import Testing

@testable import DaemonSources
@testable import DaemonSupport

@Suite("daemon paths and fetch backoff")
struct DaemonPathsTests {
  @Test func systemdDirectoriesWinOverXDGAndConfigWinsOverBoth() {
    let env = [
      "STATE_DIRECTORY": "/var/lib/rippled", "CACHE_DIRECTORY": "/var/cache/rippled:/other",
      "LOGS_DIRECTORY": "/var/log/rippled", "HOME": "/home/u", "XDG_STATE_HOME": "/x",
    ]
    let paths = DaemonPaths.resolve(.init(), environment: env)
    #expect(paths.state == "/var/lib/rippled")
    #expect(paths.cache == "/var/cache/rippled")
    #expect(paths.logs == "/var/log/rippled")
    let home = DaemonPaths.resolve(.init(), environment: ["HOME": "/home/u"])
    #expect(home.state == "/home/u/.local/state/rippled")
    #expect(home.logs == "/home/u/.local/state/rippled/logs")
    let configured = DaemonPaths.resolve(.init(stateDirectory: "/srv/state"), environment: env)
    #expect(configured.state == "/srv/state")
  }

  @Test func backoffGrowsAfterFailuresWithJitterAndIsCappedByTheInterval() {
    let interval = Duration.seconds(60)
    #expect(BranchSource.delay(interval: interval, failures: 0, random: 0) == .seconds(54))
    #expect(BranchSource.delay(interval: interval, failures: 0, random: 0.5) == .seconds(60))
    #expect(BranchSource.delay(interval: interval, failures: 1, random: 0.5) == .seconds(5))
    #expect(BranchSource.delay(interval: interval, failures: 3, random: 0.5) == .seconds(20))
    #expect(BranchSource.delay(interval: interval, failures: 10, random: 0.5) == .seconds(60))
    #expect(BranchSource.delay(interval: interval, failures: 10, random: 0) == .seconds(48))
  }

  @Test func journaldLinesCarryPriorityAndRunAndStayOnOneLine() {
    #expect(DaemonLog.format(.warning, "a\nb", run: 12) == "<4>run 12: a ⏎ b\n")
    #expect(DaemonLog.format(.info, "ready") == "<6>ready\n")
    // On a terminal: no syslog prefixes, the level named where it matters.
    #expect(DaemonLog.format(.warning, "a\nb", run: 12, syslogPrefixes: false) == "warning: run 12: a ⏎ b\n")
    #expect(DaemonLog.format(.error, "bad", syslogPrefixes: false) == "error: bad\n")
    #expect(DaemonLog.format(.info, "ready", syslogPrefixes: false) == "ready\n")
  }
}
