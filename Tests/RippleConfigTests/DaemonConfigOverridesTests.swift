import ConfigLoading
import RippleConfig
import Testing

@Suite("ripple.yml daemon: section")
struct DaemonConfigOverridesTests {
  @Test func allKeys() throws {
    let text = """
      selection: {unowned: ignore}
      daemon:
        runTimeout: 45m
        testArguments: ["-c", "release"]
        bootstrap: false
        coverage: true
        retryFailed: 1
      """
    let config = try ConfigLoader.parse(text, path: "ripple.yml")
    #expect(
      config.daemon
        == RepositoryDaemonSettings(
          runTimeout: .seconds(45 * 60), testArguments: ["-c", "release"], bootstrap: false, coverage: true,
          retryFailed: 1))
    #expect(config.selection.unowned == .ignore)
  }

  @Test(arguments: ["", "daemon:\n", "daemon: {}\n"])
  func absentOrEmptyMeansNoOverrides(text: String) throws {
    #expect(try ConfigLoader.parse(text, path: "ripple.yml").daemon == RepositoryDaemonSettings())
  }

  @Test func onlyTheGivenKeysOverride() throws {
    let base = RepositorySettings(
      name: "a", source: .remote(url: "/a.git"), runTimeout: .seconds(60), bootstrap: true, testArguments: ["-v"])
    let config = try ConfigLoader.parse("daemon:\n  bootstrap: false\n", path: "ripple.yml")
    let applied = base.applying(config.daemon)
    #expect(applied.bootstrap == false)
    #expect(applied.runTimeout == .seconds(60))
    #expect(applied.testArguments == ["-v"])
    #expect(base.applying(RepositoryDaemonSettings(runTimeout: .seconds(5), testArguments: [])).testArguments == [])
    #expect(base.applying(RepositoryDaemonSettings()) == base)
  }

  /// A branch's ripple.yml may only narrow what the operator's rippled.yml allows (issue 39.4).
  @Test func aBranchCanNarrowButNeverWidenTheOperatorsSettings() throws {
    let off = RepositorySettings(name: "a", source: .remote(url: "/a.git"), runTimeout: .seconds(60), bootstrap: false)
    let config = try ConfigLoader.parse("daemon:\n  bootstrap: true\n  runTimeout: 2h\n", path: "ripple.yml")
    let applied = off.applying(config.daemon)
    #expect(applied.bootstrap == false, "the operator's bootstrap: false wins")
    #expect(applied.runTimeout == .seconds(60), "a longer limit never extends rippled.yml's")
    #expect(off.applying(RepositoryDaemonSettings(runTimeout: .seconds(5))).runTimeout == .seconds(5))
  }

  /// `coverage` is the repository's to choose either way: it only changes how its own tests are built and measured.
  @Test func aRepositoryTurnsCoverageOnOrOff() throws {
    let off = RepositorySettings(name: "a", source: .remote(url: "/a.git"))
    #expect(!off.coverage)
    let on = try ConfigLoader.parse("daemon:\n  coverage: true\n", path: "ripple.yml")
    #expect(off.applying(on.daemon).coverage)
    var operatorOn = off
    operatorOn.coverage = true
    let offAgain = try ConfigLoader.parse("daemon:\n  coverage: false\n", path: "ripple.yml")
    #expect(!operatorOn.applying(offAgain.daemon).coverage)
    #expect(operatorOn.applying(RepositoryDaemonSettings()).coverage, "unset keeps rippled.yml's")
  }

  @Test func aCoverageThatIsNotABooleanNamesItsFileAndLine() throws {
    let error = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("daemon:\n  bootstrap: true\n  coverage: 80%\n", path: "ripple.yml")
    }
    #expect(error?.file == "ripple.yml")
    #expect(error?.line == 3)
    #expect(error?.keyPath == "daemon.coverage")
    #expect(error?.message == "expected true or false, found the string `80%`")
  }

  /// Issue 39, item 10: the network a run sees is the operator's alone (`runs.network` in rippled.yml); a
  /// branch cannot ask for the host's.
  @Test func aBranchCannotChooseTheNetworkOfItsRuns() throws {
    let error = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("daemon:\n  network: host\n", path: "ripple.yml")
    }
    #expect(error?.keyPath == "daemon.network")
    #expect(error?.message == "unknown key `network`")
  }

  @Test func anUnknownKeyIsAnErrorWithItsLine() throws {
    let error = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("daemon:\n  runTimeout: 5m\n  fetchInterval: 1m\n", path: "ripple.yml")
    }
    #expect(error?.line == 3)
    #expect(error?.keyPath == "daemon.fetchInterval")
    #expect(error?.message == "unknown key `fetchInterval`")
    #expect(error?.hint == "valid keys: runTimeout, testArguments, bootstrap, coverage, retryFailed")
  }

  @Test func aMisspeltKeyGetsASuggestion() throws {
    let error = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("daemon:\n  runtimeout: 5m\n", path: "ripple.yml")
    }
    #expect(error?.keyPath == "daemon.runtimeout")
    #expect(error?.hint == "did you mean `runTimeout`?")
  }

  @Test func badValuesNameTheirKeyAndLine() throws {
    let duration = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("daemon:\n  runTimeout: 30\n", path: "ripple.yml")
    }
    #expect(duration?.line == 2)
    #expect(duration?.keyPath == "daemon.runTimeout")
    #expect(duration?.message == "`30` has no unit")
    let arguments = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("daemon:\n  testArguments: -v\n", path: "ripple.yml")
    }
    #expect(arguments?.keyPath == "daemon.testArguments")
    #expect(arguments?.message == "expected a list of arguments, found the string `-v`")
    let bootstrap = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("daemon:\n  bootstrap: sometimes\n", path: "ripple.yml")
    }
    #expect(bootstrap?.keyPath == "daemon.bootstrap")
    #expect(bootstrap?.line == 2)
  }

  /// Retries turn a failure into a flaky pass: a branch may retry less than rippled.yml allows, never more.
  @Test func aBranchMayRetryLessThanTheOperatorAllowsNeverMore() throws {
    var settings = RepositorySettings(name: "a", source: .remote(url: "/a.git"))
    #expect(settings.retryFailed == 0)
    let more = try ConfigLoader.parse("daemon:\n  retryFailed: 3\n", path: "ripple.yml")
    #expect(settings.applying(more.daemon).retryFailed == 0, "the operator's 0 wins")
    settings.retryFailed = 2
    #expect(settings.applying(more.daemon).retryFailed == 2)
    let none = try ConfigLoader.parse("daemon:\n  retryFailed: 0\n", path: "ripple.yml")
    #expect(settings.applying(none.daemon).retryFailed == 0)
    #expect(settings.applying(RepositoryDaemonSettings()).retryFailed == 2, "unset keeps rippled.yml's")
  }

  @Test(arguments: ["-1", "many", "101", "1.5"]) func aRetryCountThatIsNotAWholeNumberUpTo100NamesItsLine(value: String)
    throws
  {
    let error = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("daemon:\n  coverage: true\n  retryFailed: \(value)\n", path: "ripple.yml")
    }
    #expect(error?.line == 3)
    #expect(error?.keyPath == "daemon.retryFailed")
  }
}
