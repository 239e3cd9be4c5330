import ConfigLoading
import Foundation
import RippleConfig
import Testing

@Suite("rippled.yml parsing")
struct DaemonConfigTests {
  let path = "/etc/ripple/rippled.yml"

  @Test func fullFile() throws {
    let text = """
      http: {address: "127.0.0.1:7878", tokenFile: token, webhookSecretFile: /etc/ripple/webhook-secret}
      stateDirectory: /srv/rippled/state
      cacheDirectory: ../cache/./rippled
      logsDirectory: /var/log//rippled/
      concurrency: 2
      shutdownGrace: 45s
      retention: {maxRuns: 500, maxAge: 14d, maxLogSize: 512KiB}
      repositories:
        - name: isowords
          remote: https://github.com/pointfreeco/isowords.git
          branches: [main, {pattern: "feature/*", cancelRunning: true}]
          fetchInterval: 90s
          fetchTimeout: 2m
          runTimeout: 1h
          bootstrap: false
          testArguments: ["-c", "release", -j, 4]
          coverage: true
          granularity: test
          retryFailed: 2
        - name: my-checkout
          path: checkouts/isowords
          settle: 250ms
          watch: poll
          pollInterval: 5s
      """
    let config = try DaemonConfigLoader.parse(text, path: path)
    #expect(
      config.http
        == HTTPSettings(
          host: "127.0.0.1", port: 7878, tokenFile: "/etc/ripple/token",
          webhookSecretFile: "/etc/ripple/webhook-secret"))
    #expect(config.stateDirectory == "/srv/rippled/state")
    #expect(config.cacheDirectory == "/etc/cache/rippled")
    #expect(config.logsDirectory == "/var/log/rippled")
    #expect(config.concurrency == 2)
    #expect(config.shutdownGrace == .seconds(45))
    #expect(config.retention == Retention(maxRuns: 500, maxAge: .seconds(14 * 86_400), maxLogBytes: 512 * 1024))
    #expect(config.repositories.count == 2)

    let remote = config.repositories[0]
    #expect(remote.name == "isowords")
    #expect(remote.source == .remote(url: "https://github.com/pointfreeco/isowords.git"))
    #expect(remote.branches == [BranchRule(pattern: "main"), BranchRule(pattern: "feature/*", cancelRunning: true)])
    #expect(remote.fetchInterval == .seconds(90))
    #expect(remote.fetchTimeout == .seconds(120))
    #expect(remote.runTimeout == .seconds(3600))
    #expect(remote.bootstrap == false)
    #expect(remote.testArguments == ["-c", "release", "-j", "4"])
    #expect(remote.coverage)
    #expect(remote.granularity == .test)
    #expect(remote.retryFailed == 2)

    let checkout = config.repositories[1]
    #expect(checkout.source == .workingTree(path: "/etc/ripple/checkouts/isowords"))
    #expect(checkout.settle == .milliseconds(250))
    #expect(checkout.watch == .poll)
    #expect(checkout.pollInterval == .seconds(5))
    #expect(checkout.branches == [BranchRule(pattern: "main")])
    #expect(!checkout.coverage, "coverage is off unless asked for")
    #expect(checkout.granularity == nil, "the repository's ripple.yml decides unless the operator does")
    #expect(checkout.retryFailed == 0, "no retries unless asked for")
  }

  @Test func sandboxModesAndProtectedBranches() throws {
    let defaults = try DaemonConfigLoader.parse("repositories:\n  - {name: a, remote: /srv/git/a.git}\n", path: path)
    #expect(defaults.sandbox == .auto)
    #expect(defaults.repositories[0].protectedBranches == nil)
    for mode in SandboxMode.allCases {
      let config = try DaemonConfigLoader.parse(
        "runs:\n  sandbox: \(mode.rawValue)\nrepositories:\n  - {name: a, path: /src/a}\n", path: path)
      #expect(config.sandbox == mode)
    }
    let protected = try DaemonConfigLoader.parse(
      "repositories:\n  - {name: a, remote: /srv/git/a.git, protectedBranches: [main, \"release/*\"]}\n", path: path)
    #expect(protected.repositories[0].protectedBranches == ["main", "release/*"])
  }

  /// Issue 39, item 10: runs get a network of their own unless the operator says `host`.
  @Test func runsNetworkIsIsolatedUnlessTheOperatorSaysHost() throws {
    let defaults = try DaemonConfigLoader.parse("repositories:\n  - {name: a, path: /src/a}\n", path: path)
    #expect(defaults.network == .isolated)
    for network in RunNetwork.allCases {
      let config = try DaemonConfigLoader.parse(
        "runs:\n  network: \(network.rawValue)\nrepositories:\n  - {name: a, path: /src/a}\n", path: path)
      #expect(config.network == network)
      #expect(config.sandbox == .auto)
    }
  }

  /// Issue 39, item 6: the variables a run inherits, PATH, HOME, LANG and TMPDIR unless listed.
  @Test func runsEnvironmentListsWhatARunInherits() throws {
    let defaults = try DaemonConfigLoader.parse("repositories:\n  - {name: a, path: /src/a}\n", path: path)
    #expect(defaults.runEnvironment == ["PATH", "HOME", "LANG", "TMPDIR"])
    let listed = try DaemonConfigLoader.parse(
      "runs:\n  environment: [PATH, LANG, SSL_CERT_FILE]\nrepositories:\n  - {name: a, path: /src/a}\n", path: path)
    #expect(listed.runEnvironment == ["PATH", "LANG", "SSL_CERT_FILE"])
    #expect(listed.sandbox == .auto)
  }

  /// `runs.assetFolders` applies to every repository, after the repository's own `assetFolders`.
  @Test func assetFoldersOfRunsAndOfARepository() throws {
    let config = try DaemonConfigLoader.parse(
      "repositories:\n  - {name: a, remote: /srv/git/a.git, assetFolders: [/usr]}\n  - {name: b, path: /src/b}\n"
        + "runs:\n  assetFolders: [/tmp]\n", path: path)
    #expect(config.assetFolders == ["/tmp"])
    #expect(config.repositories.map(\.assetFolders) == [["/usr", "/tmp"], ["/tmp"]])
    let none = try DaemonConfigLoader.parse("repositories:\n  - {name: a, remote: /srv/git/a.git}\n", path: path)
    #expect(none.repositories[0].assetFolders.isEmpty)
  }

  @Test func omittedKeysTakeTheModelDefaults() throws {
    let config = try DaemonConfigLoader.parse("repositories:\n  - {name: a, remote: /srv/git/a.git}\n", path: path)
    #expect(
      config
        == DaemonConfiguration(repositories: [RepositorySettings(name: "a", source: .remote(url: "/srv/git/a.git"))]))
    let nulls = try DaemonConfigLoader.parse(
      "http:\nretention:\nrepositories:\n  - {name: a, path: /src/a}\n", path: path)
    #expect(nulls.http == HTTPSettings())
    #expect(nulls.retention == Retention())
    let unset = try DaemonConfigLoader.parse(
      "http: {tokenFile: ~, webhookSecretFile: }\nstateDirectory: ~\nrepositories:\n  - {name: a, path: /src/a}\n",
      path: path)
    #expect(unset.http.tokenFile == nil && unset.http.webhookSecretFile == nil && unset.stateDirectory == nil)
  }

  @Test(arguments: [
    ("[::1]:0", "::1", 0), ("[fe80::1%eth0]:80", "fe80::1%eth0", 80), ("localhost:65535", "localhost", 65535),
    ("0.0.0.0:7878", "0.0.0.0", 7878), ("build-box.example.com:8080", "build-box.example.com", 8080),
  ])
  func addresses(text: String, host: String, port: Int) throws {
    let yaml = "http: {address: \"\(text)\"}\nrepositories: [{name: a, path: /a}]\n"
    let http = try DaemonConfigLoader.parse(yaml, path: path).http
    #expect(http.host == host)
    #expect(http.port == port)
  }

  @Test(arguments: [
    ("250ms", Duration.milliseconds(250)), ("30s", .seconds(30)), ("5m", .seconds(300)), ("2h", .seconds(7200)),
    ("30d", .seconds(2_592_000)), ("1_000ms", .seconds(1)),
  ])
  func durations(text: String, expected: Duration) throws {
    let config = try DaemonConfigLoader.parse(
      "shutdownGrace: \(text)\nrepositories: [{name: a, path: /a}]\n", path: path)
    #expect(config.shutdownGrace == expected)
  }

  @Test(arguments: [
    ("1048576", 1 << 20), ("512B", 512), ("512KiB", 512 << 10), ("10MiB", 10 << 20), ("1GiB", 1 << 30),
  ])
  func sizes(text: String, expected: Int) throws {
    let yaml = "retention: {maxLogSize: \(text)}\nrepositories: [{name: a, path: /a}]\n"
    #expect(try DaemonConfigLoader.parse(yaml, path: path).retention.maxLogBytes == expected)
  }

  @Test func remotesThatAreURLsStayAsWrittenAndPathsBecomeAbsolute() throws {
    let yaml = """
      repositories:
        - {name: https, remote: "https://example.com/a.git"}
        - {name: ssh, remote: "ssh://git@example.com:2222/a.git"}
        - {name: scp, remote: "git@github.com:pointfreeco/isowords.git"}
        - {name: file, remote: "file:///srv/git/a.git"}
        - {name: bare, remote: "../git/a.git"}
        - {name: home, remote: "~/git/a.git"}
      """
    let sources = try DaemonConfigLoader.parse(yaml, path: "/etc/ripple/rippled.yml").repositories.map(\.source)
    let home = FileManager.default.homeDirectoryForCurrentUser.path
    #expect(
      sources == [
        .remote(url: "https://example.com/a.git"), .remote(url: "ssh://git@example.com:2222/a.git"),
        .remote(url: "git@github.com:pointfreeco/isowords.git"), .remote(url: "file:///srv/git/a.git"),
        .remote(url: "/etc/git/a.git"), .remote(url: (home == "/" ? "" : home) + "/git/a.git"),
      ])
  }

  @Test func aRelativeConfigPathResolvesAgainstTheCurrentDirectory() throws {
    let config = try DaemonConfigLoader.parse("repositories: [{name: a, path: src}]\n", path: "conf/rippled.yml")
    let cwd = FileManager.default.currentDirectoryPath
    #expect(config.repositories[0].source == .workingTree(path: (cwd == "/" ? "" : cwd) + "/conf/src"))
  }

  @Test func aSingleBranchNameIsOneRule() throws {
    let config = try DaemonConfigLoader.parse(
      "repositories: [{name: a, remote: /a.git, branches: \"release/*\"}]\n", path: path)
    #expect(config.repositories[0].branches == [BranchRule(pattern: "release/*")])
  }

  @Test func loadReadsTheFileAndNamesItInErrors() throws {
    let directory = NSTemporaryDirectory() + "rippled-config-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = directory + "/rippled.yml"
    try "repositories: [{name: a, path: tree}]\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try DaemonConfigLoader.load(path: file).repositories[0].source == .workingTree(path: directory + "/tree"))

    let missing = directory + "/nope.yml"
    let error = #expect(throws: ConfigError.self) { try DaemonConfigLoader.load(path: missing) }
    #expect(error?.file == missing)
    #expect(error?.message == "config file not found")
  }

  /// The annotated file shipped in Config/ (and installed as /etc/ripple/rippled.yml) must parse, and its
  /// active values must be the model's defaults.
  @Test func theShippedConfigParses() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Config/rippled.yml").standardized.path
    let config = try DaemonConfigLoader.load(path: file)
    #expect(config.http == HTTPSettings())
    #expect(config.concurrency == 1)
    #expect(config.shutdownGrace == .seconds(60))
    #expect(config.retention == Retention())
    #expect(config.network == .isolated)
    #expect(config.stateDirectory == nil && config.cacheDirectory == nil && config.logsDirectory == nil)
    let defaults = RepositorySettings(
      name: "isowords", source: .remote(url: "https://github.com/pointfreeco/isowords.git"))
    #expect(config.repositories == [defaults])
  }

  /// Every key the parser knows appears in the shipped file, active or commented.
  @Test func theShippedConfigMentionsEveryKey() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Config/rippled.yml").standardized.path
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let keys = [
      "http", "address", "tokenFile", "webhookSecretFile", "stateDirectory", "cacheDirectory", "logsDirectory",
      "concurrency", "shutdownGrace", "retention", "maxRuns", "maxAge", "maxLogSize", "repositories", "name",
      "remote", "path", "branches", "pattern", "cancelRunning", "fetchInterval", "fetchTimeout", "runTimeout",
      "bootstrap", "testArguments", "coverage", "granularity", "settle", "watch", "pollInterval", "sandbox", "network",
      "assetFolders",
    ]
    for key in keys {
      #expect(text.contains("\(key):"), "Config/rippled.yml does not mention `\(key)`")
    }
  }
}
