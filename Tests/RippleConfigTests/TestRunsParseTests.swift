import ConfigLoading
import RippleConfig
import RippleCore
import Testing

/// `test.runs` and `test.requires`, and the runs planned without them.
@Suite struct TestRunsParseTests {
  @Test func runsAndRequirementsInOrder() throws {
    let config = try ConfigLoader.parse(
      """
      test:
        runs:
          - name: server
            environment: {TEST_SERVER: "1"}
            platforms: [linux]
            runner: swift
          - name: client
            platforms: [macos]
        requires:
          - name: postgres
            command: [pg_isready, -q]
      """, path: "ripple.yml")
    #expect(
      config.testRuns == [
        TestRunSpec(name: "server", environment: ["TEST_SERVER": "1"], platforms: [.linux]),
        TestRunSpec(name: "client", platforms: [.macos]),
      ])
    #expect(config.test.requires.map(\.name) == ["postgres"])
    #expect(config.test.requires.first?.command == ["pg_isready", "-q"])
    #expect(config.test.requires.first?.location.line == 10)
    // Every run's graph is evaluated: the server environment joins the default `{}`.
    #expect(config.graphEnvironments == [[:], ["TEST_SERVER": "1"]])
  }

  @Test func withoutRunsOneRunPerManifestEnvironmentOnEveryPlatform() throws {
    let config = try ConfigLoader.parse(
      """
      selection:
        manifestEnvironments: [{}, {TEST_SERVER: "1"}]
      """, path: "ripple.yml")
    #expect(config.testRuns.map(\.name) == ["default", "TEST_SERVER=1"])
    #expect(config.testRuns.allSatisfy { $0.platforms == [.linux, .macos] && $0.runner == .swift })
    #expect(RippleConfiguration().testRuns == [TestRunSpec(name: "default")])
  }

  @Test(arguments: [
    ("test:\n  runs:\n    - name: a\n      platforms: [windows]\n", 4, "`windows` is not a platform"),
    ("test:\n  runs:\n    - name: a\n      runner: gradle\n", 4, "`gradle` is not a test runner"),
    ("test:\n  runs:\n    - name: a\n      environment: {TEST_SERVER: 1}\n", 4, "must be a string"),
    ("test:\n  runs:\n    - name: a\n      environment: {X: [1]}\n", 4, "must be a string"),
    ("test:\n  runs:\n    - name: a\n    - name: a\n", 4, "used twice"),
    ("test:\n  runs:\n    - platforms: [linux]\n", 3, "needs a `name`"),
    ("test:\n  requires:\n    - name: db\n", 3, "needs a `command`"),
    ("test:\n  requires:\n    - name: db\n      command: []\n", 4, "cannot be empty"),
    ("test:\n  runz: []\n", 2, "unknown key `runz`"),
  ])
  func badInputIsAConfigErrorWithItsLine(text: String, line: Int, message: String) throws {
    let error = try #require(throws: ConfigError.self) { try ConfigLoader.parse(text, path: "ripple.yml") }
    #expect(error.category == .usage)
    #expect(error.line == line, "\(error.description)")
    #expect(error.description.contains(message), "\(error.description)")
    #expect(error.description.hasPrefix("ripple.yml:\(line):"))
  }
}

/// `test.quarantine`: entries in order with where they are written; every bad entry a config error with its line.
@Suite struct QuarantineParseTests {
  @Test func entriesInOrder() throws {
    let config = try ConfigLoader.parse(
      """
      test:
        quarantine:
          - test: NetTests/ClientTests/testRetry
            reason: "https://issues/12: DNS in CI"
            until: 2026-12-31
          - {test: SlowTests, reason: too slow}
      """, path: "ripple.yml")
    let entries = config.test.quarantine
    #expect(entries.map(\.test) == ["NetTests/ClientTests/testRetry", "SlowTests"])
    #expect(entries.map(\.until) == ["2026-12-31", nil])
    #expect(entries[0].reason == "https://issues/12: DNS in CI")
    #expect(entries.map(\.origin) == ["ripple.yml:3", "ripple.yml:6"])
  }

  @Test(arguments: [
    ("test:\n  quarantine:\n    - test: A\n      reason: r\n      untill: 2026-01-01\n", 5, "unknown key `untill`"),
    (
      "test:\n  quarantine:\n    - test: A\n      reason: r\n      until: 2026-02-30\n", 5, "`2026-02-30` is not a date"
    ),
    ("test:\n  quarantine:\n    - test: A\n      reason: r\n      until: next week\n", 5, "`next week` is not a date"),
    ("test:\n  quarantine:\n    - test: A\n      reason: r\n      until: 2026-1-5\n", 5, "`2026-1-5` is not a date"),
    (
      "test:\n  quarantine:\n    - test: A\n      reason: r\n      until: 2026-13-01\n", 5, "`2026-13-01` is not a date"
    ),
    ("test:\n  quarantine:\n    - test: \"\"\n      reason: r\n", 3, "test cannot be empty"),
    ("test:\n  quarantine:\n    - test: A//b\n      reason: r\n", 3, "`A//b` is not a test pattern"),
    ("test:\n  quarantine:\n    - test: A/B/c/d\n      reason: r\n", 3, "`A/B/c/d` is not a test pattern"),
    ("test:\n  quarantine:\n    - test: A/\n      reason: r\n", 3, "`A/` is not a test pattern"),
    ("test:\n  quarantine:\n    - test: A\n", 3, "the quarantine of `A` needs a `reason`"),
    ("test:\n  quarantine:\n    - test: A\n      reason: \"  \"\n", 4, "reason cannot be empty"),
    ("test:\n  quarantine:\n    - reason: r\n", 3, "needs a `test`"),
    ("test:\n  quarantine:\n    - test: [A]\n      reason: r\n", 3, "expected a string"),
    ("test:\n  quarantine:\n    test: A\n", 3, "expected a list"),
  ])
  func badEntryIsAConfigErrorWithItsLine(text: String, line: Int, message: String) throws {
    let error = try #require(throws: ConfigError.self) { try ConfigLoader.parse(text, path: "ripple.yml") }
    #expect(error.category == .usage)
    #expect(error.line == line, "\(error.description)")
    #expect(error.description.hasPrefix("ripple.yml:\(line):"), "\(error.description)")
    #expect(error.description.contains(message), "\(error.description)")
  }
}
