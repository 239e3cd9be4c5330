import ConfigLoading
import RippleConfig
import Testing

/// One bad `rippled.yml` and the error it must produce.
struct BadDaemonConfig: Sendable, CustomTestStringConvertible {
  var name: String
  var yaml: String
  var line: Int?
  var keyPath: String?
  var message: String
  var hint: String? = nil

  var testDescription: String { name }
}

/// A valid repository list, appended where a case is about something else.
private let repos = "repositories: [{name: a, path: /a}]\n"
private let durationHint = "write a whole number and a unit: 250ms, 30s, 5m, 2h or 30d"
private let sizeHint = "write a number of bytes or a whole number and a unit: 512KiB, 10MiB, 1GiB"
private let addressHint = "write host:port, e.g. 127.0.0.1:7878, localhost:7878, [::1]:7878 or 0.0.0.0:7878"

@Suite("rippled.yml errors")
struct DaemonConfigErrorTests {
  static let cases: [BadDaemonConfig] = [
    // Unknown keys, with suggestions.
    .init(
      name: "unknown top-level key", yaml: "concurency: 2\n" + repos, line: 1, keyPath: "concurency",
      message: "unknown key `concurency`", hint: "did you mean `concurrency`?"),
    .init(
      name: "unknown http key", yaml: "http:\n  adress: \"127.0.0.1:1\"\n" + repos, line: 2, keyPath: "http.adress",
      message: "unknown key `adress`", hint: "did you mean `address`?"),
    .init(
      name: "unknown retention key", yaml: "retention:\n  maxLogBytes: 1\n" + repos, line: 2,
      keyPath: "retention.maxLogBytes", message: "unknown key `maxLogBytes`",
      hint: "valid keys: maxRuns, maxAge, maxLogSize"),
    .init(
      name: "unknown repository key",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    fetchIntervall: 5m\n", line: 4,
      keyPath: "repositories[0].fetchIntervall", message: "unknown key `fetchIntervall`",
      hint: "did you mean `fetchInterval`?"),
    .init(
      name: "unknown branch rule key",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    branches: [main, {pattern: x, cancel: true}]\n",
      line: 4, keyPath: "repositories[0].branches[1].cancel", message: "unknown key `cancel`",
      hint: "valid keys: pattern, cancelRunning"),

    // runs: and protectedBranches.
    .init(
      name: "unknown sandbox mode", yaml: "runs:\n  sandbox: strict\n" + repos, line: 2, keyPath: "runs.sandbox",
      message: "`strict` is not a sandbox mode",
      hint: "use auto (bubblewrap when it works), required (refuse to start without it) or off"),
    .init(
      name: "runs.environment entry that is not a name", yaml: "runs:\n  environment: [PATH, \"A=1\"]\n" + repos,
      line: 2, keyPath: "runs.environment", message: "`A=1` is not a variable name",
      hint: "list names only, e.g. [PATH, HOME, LANG, TMPDIR]"),
    .init(
      name: "runs.assetFolders names no folder", yaml: "runs:\n  assetFolders: [/srv/no-such-ripple-assets]\n" + repos,
      line: 2, keyPath: "runs.assetFolders[0]", message: "`/srv/no-such-ripple-assets` is not a folder",
      hint: "list existing folders that hold asset files, e.g. /srv/assets"),
    .init(
      name: "a repository's assetFolders names a file",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    assetFolders:\n      - /etc/hostname\n", line: 5,
      keyPath: "repositories[0].assetFolders[0]", message: "`/etc/hostname` is not a folder",
      hint: "list existing folders that hold asset files, e.g. /srv/assets"),
    .init(
      name: "unknown runs key", yaml: "runs:\n  sandbx: off\n" + repos, line: 2, keyPath: "runs.sandbx",
      message: "unknown key `sandbx`", hint: "did you mean `sandbox`?"),
    .init(
      name: "unknown run network", yaml: "runs:\n  network: none\n" + repos, line: 2, keyPath: "runs.network",
      message: "`none` is not a run network",
      hint: "use isolated (only the sandbox's own loopback) or host (the host's network, rippled's API too)"),
    .init(
      name: "misspelt runs.network", yaml: "runs:\n  netwrk: host\n" + repos, line: 2, keyPath: "runs.netwrk",
      message: "unknown key `netwrk`", hint: "did you mean `network`?"),
    .init(
      name: "empty protectedBranches",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    protectedBranches: []\n", line: 4,
      keyPath: "repositories[0].protectedBranches",
      message: "protectedBranches needs at least one non-empty branch name or glob",
      hint: "list the branches whose runs may write the shared manifest cache, e.g. [main, \"release/*\"]"),

    // Durations and sizes.
    .init(
      name: "duration without a unit", yaml: "shutdownGrace: 60\n" + repos, line: 1, keyPath: "shutdownGrace",
      message: "`60` has no unit", hint: durationHint),
    .init(
      name: "duration with an unknown unit", yaml: "shutdownGrace: 5min\n" + repos, line: 1,
      keyPath: "shutdownGrace", message: "`5min` is not a duration: unknown unit `min`", hint: durationHint),
    .init(
      name: "zero duration", yaml: "retention: {maxAge: 0d}\n" + repos, line: 1, keyPath: "retention.maxAge",
      message: "a duration must be more than zero", hint: durationHint),
    .init(
      name: "compound duration", yaml: "repositories:\n  - {name: a, path: /a, settle: 1m30s}\n", line: 2,
      keyPath: "repositories[0].settle", message: "`1m30s` is not a duration", hint: durationHint),
    .init(
      name: "negative duration", yaml: "shutdownGrace: -5s\n" + repos, line: 1, keyPath: "shutdownGrace",
      message: "`-5s` is not a duration", hint: durationHint),
    .init(
      name: "decimal size unit", yaml: "retention:\n  maxLogSize: 10MB\n" + repos, line: 2,
      keyPath: "retention.maxLogSize", message: "`10MB` uses a decimal unit",
      hint: "sizes use binary units: write `10MiB`"),
    .init(
      name: "size that is not a size", yaml: "retention:\n  maxLogSize: big\n" + repos, line: 2,
      keyPath: "retention.maxLogSize", message: "`big` is not a size", hint: sizeHint),
    .init(
      name: "zero size", yaml: "retention:\n  maxLogSize: 0\n" + repos, line: 2, keyPath: "retention.maxLogSize",
      message: "a size must be more than zero", hint: sizeHint),

    // Counts.
    .init(
      name: "zero concurrency", yaml: "concurrency: 0\n" + repos, line: 1, keyPath: "concurrency",
      message: "must be at least 1, found 0"),
    .init(
      name: "concurrency as text", yaml: "concurrency: two\n" + repos, line: 1, keyPath: "concurrency",
      message: "expected a whole number, found the string `two`"),
    .init(
      name: "zero maxRuns", yaml: "retention: {maxRuns: 0}\n" + repos, line: 1, keyPath: "retention.maxRuns",
      message: "must be at least 1, found 0"),

    // Listen addresses.
    .init(
      name: "address without a port", yaml: "http: {address: localhost}\n" + repos, line: 1, keyPath: "http.address",
      message: "`localhost` has no port", hint: addressHint),
    .init(
      name: "port out of range", yaml: "http:\n  address: \"127.0.0.1:65536\"\n" + repos, line: 2,
      keyPath: "http.address", message: "`65536` is not a port", hint: "a port is 0 to 65535 (0 picks a free port)"),
    .init(
      name: "port that is not a number", yaml: "http: {address: \"localhost:http\"}\n" + repos, line: 1,
      keyPath: "http.address", message: "`http` is not a port", hint: "a port is 0 to 65535 (0 picks a free port)"),
    .init(
      name: "IPv6 without brackets", yaml: "http: {address: \"::1:7878\"}\n" + repos, line: 1,
      keyPath: "http.address", message: "`::1:7878` is ambiguous",
      hint: "put an IPv6 address in brackets: [::1]:7878"),
    .init(
      name: "address without a host", yaml: "http: {address: \":7878\"}\n" + repos, line: 1, keyPath: "http.address",
      message: "`:7878` has no host", hint: "write 127.0.0.1 for this machine only, 0.0.0.0 or [::] for all"),
    .init(
      name: "bracketed address that is not IPv6", yaml: "http: {address: \"[localhost]:80\"}\n" + repos, line: 1,
      keyPath: "http.address", message: "`localhost` is not an IPv6 address", hint: addressHint),
    .init(
      name: "host with a space", yaml: "http: {address: \"my host:80\"}\n" + repos, line: 1, keyPath: "http.address",
      message: "`my host` is not a host name", hint: addressHint),

    // Paths.
    .init(
      name: "empty path", yaml: "stateDirectory: \"\"\n" + repos, line: 1, keyPath: "stateDirectory",
      message: "the path is empty"),
    .init(
      name: "path that is a number", yaml: "http: {tokenFile: 12}\n" + repos, line: 1, keyPath: "http.tokenFile",
      message: "expected a string, found the number `12`", hint: "quote the value"),

    // Repositories.
    .init(
      name: "no repositories key", yaml: "concurrency: 1\n", line: nil, keyPath: "repositories",
      message: "nothing to watch: no repositories are configured",
      hint: "add one with `remote:` (a URL or bare repository to fetch) or `path:` (a working tree to watch)"),
    .init(
      name: "empty repositories", yaml: "concurrency: 1\nrepositories: []\n", line: 2, keyPath: "repositories",
      message: "nothing to watch: no repositories are configured",
      hint: "add one with `remote:` (a URL or bare repository to fetch) or `path:` (a working tree to watch)"),
    .init(
      name: "empty document", yaml: "# nothing\n", line: nil, keyPath: "repositories",
      message: "nothing to watch: no repositories are configured",
      hint: "add one with `remote:` (a URL or bare repository to fetch) or `path:` (a working tree to watch)"),
    .init(
      name: "repository that is a string", yaml: "repositories:\n  - isowords\n", line: 2, keyPath: "repositories[0]",
      message: "expected a mapping, found the string `isowords`"),
    .init(
      name: "repository without a name", yaml: "repositories:\n  - remote: /a.git\n", line: 2,
      keyPath: "repositories[0]", message: "missing key `name`", hint: "required keys: name"),
    .init(
      name: "invalid name", yaml: "repositories:\n  - name: my repo\n    path: /a\n", line: 2,
      keyPath: "repositories[0].name", message: "`my repo` is not a valid repository name",
      hint: "use letters, digits, `.`, `_` and `-` (at most 100)"),
    .init(
      name: "duplicate name",
      yaml: "repositories:\n  - name: a\n    path: /a\n  - name: b\n    path: /b\n  - name: a\n    remote: /a.git\n",
      line: 6, keyPath: "repositories[2].name", message: "duplicate repository name `a`",
      hint: "names must be unique; the first one is at line 2"),
    .init(
      name: "neither remote nor path", yaml: "repositories:\n  - name: a\n    runTimeout: 5m\n", line: 2,
      keyPath: "repositories[0]", message: "repository `a` has neither `remote` nor `path`",
      hint: "add `remote:` (a URL or bare repository to fetch) or `path:` (a working tree to watch)"),
    .init(
      name: "both remote and path", yaml: "repositories:\n  - name: a\n    remote: /a.git\n    path: /a\n", line: 4,
      keyPath: "repositories[0].path", message: "repository `a` has both `remote` and `path`",
      hint: "use `remote:` to fetch branches, or `path:` to watch a working tree, not both"),
    .init(
      name: "empty remote", yaml: "repositories:\n  - {name: a, remote: \"\"}\n", line: 2,
      keyPath: "repositories[0].remote", message: "the remote is empty",
      hint: "write a URL or the path of a bare repository"),
    .init(
      name: "branches on a working tree",
      yaml: "repositories:\n  - name: a\n    path: /a\n    branches:\n      - main\n", line: 4,
      keyPath: "repositories[0].branches",
      message: "`branches` applies to a remote (`remote:`), and repository `a` watches a working tree",
      hint: "working trees take `settle`, `watch`, `pollInterval`"),
    .init(
      name: "fetchInterval on a working tree",
      yaml: "repositories:\n  - name: a\n    path: /a\n    fetchInterval: 1m\n", line: 4,
      keyPath: "repositories[0].fetchInterval",
      message: "`fetchInterval` applies to a remote (`remote:`), and repository `a` watches a working tree",
      hint: "working trees take `settle`, `watch`, `pollInterval`"),
    .init(
      name: "settle on a remote", yaml: "repositories:\n  - name: a\n    remote: /a.git\n    settle: 1s\n", line: 4,
      keyPath: "repositories[0].settle",
      message: "`settle` applies to a working tree (`path:`), and repository `a` is fetched from a remote",
      hint: "remote repositories take `branches`, `fetchInterval`, `fetchTimeout`, `canary`, `protectedBranches`"),
    .init(
      name: "watch on a remote", yaml: "repositories:\n  - {name: a, remote: /a.git, watch: poll}\n", line: 2,
      keyPath: "repositories[0].watch",
      message: "`watch` applies to a working tree (`path:`), and repository `a` is fetched from a remote",
      hint: "remote repositories take `branches`, `fetchInterval`, `fetchTimeout`, `canary`, `protectedBranches`"),
    .init(
      name: "unknown watch mode", yaml: "repositories:\n  - name: a\n    path: /a\n    watch: fsevents\n", line: 4,
      keyPath: "repositories[0].watch", message: "the string `fsevents` is not a watch mode",
      hint: "expected one of: auto, inotify, poll"),
    .init(
      name: "empty branch list", yaml: "repositories:\n  - name: a\n    remote: /a.git\n    branches: []\n", line: 4,
      keyPath: "repositories[0].branches", message: "no branch would be followed",
      hint: "list at least one branch name or glob, e.g. [main]"),
    .init(
      name: "unclosed glob in a branch",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    branches:\n      - main\n      - \"feature/[ab\"\n",
      line: 6, keyPath: "repositories[0].branches[1]",
      message: "invalid branch pattern: `[` at offset 8 in `feature/[ab` is never closed by `]`",
      hint: "write `[[]` to match a literal `[`"),
    .init(
      name: "glob in a branch rule mapping",
      yaml:
        "repositories:\n  - name: a\n    remote: /a.git\n    branches:\n      - {pattern: \"[\", cancelRunning: true}\n",
      line: 5, keyPath: "repositories[0].branches[0].pattern",
      message: "invalid branch pattern: `[` at offset 0 in `[` is never closed by `]`",
      hint: "write `[[]` to match a literal `[`"),
    .init(
      name: "branch rule without a pattern",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    branches: [{cancelRunning: true}]\n", line: 4,
      keyPath: "repositories[0].branches[0]", message: "missing key `pattern`", hint: "required keys: pattern"),
    .init(
      name: "a ref instead of a branch",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    branches: [refs/heads/main]\n", line: 4,
      keyPath: "repositories[0].branches[0]", message: "`refs/heads/main` names a ref, not a branch",
      hint: "write the branch name as the remote has it, e.g. `main` or `feature/*`"),
    .init(
      name: "duplicate branch pattern",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    branches: [main, {pattern: main}]\n", line: 4,
      keyPath: "repositories[0].branches[1].pattern", message: "branch pattern `main` is listed twice"),
    .init(
      name: "cancelRunning that is not a boolean",
      yaml: "repositories:\n  - name: a\n    remote: /a.git\n    branches: [{pattern: main, cancelRunning: 1}]\n",
      line: 4, keyPath: "repositories[0].branches[0].cancelRunning",
      message: "expected true or false, found the number `1`"),
    .init(
      name: "testArguments as one string",
      yaml: "repositories:\n  - {name: a, path: /a, testArguments: \"-c release\"}\n",
      line: 2, keyPath: "repositories[0].testArguments",
      message: "expected a list of arguments, found the string `-c release`",
      hint: "write a list like [\"-c\", \"release\"]"),
    .init(
      name: "bootstrap that is not a boolean", yaml: "repositories:\n  - {name: a, path: /a, bootstrap: maybe}\n",
      line: 2, keyPath: "repositories[0].bootstrap", message: "expected true or false, found the string `maybe`"),
    .init(
      name: "coverage that is not a boolean", yaml: "repositories:\n  - name: a\n    path: /a\n    coverage: \"yes\"\n",
      line: 4, keyPath: "repositories[0].coverage", message: "expected true or false, found the string `yes`"),
    .init(
      name: "coverage as a percentage", yaml: "repositories:\n  - {name: a, remote: /a.git, coverage: 80}\n",
      line: 2, keyPath: "repositories[0].coverage", message: "expected true or false, found the number `80`"),
    .init(
      name: "a granularity that is not one", yaml: "repositories:\n  - {name: a, remote: /a.git, granularity: suite}\n",
      line: 2, keyPath: "repositories[0].granularity", message: "`suite` is not a granularity",
      hint: "expected one of: target, test"),
  ]

  @Test(arguments: cases)
  func badInput(_ bad: BadDaemonConfig) throws {
    let error = #expect(throws: ConfigError.self) {
      try DaemonConfigLoader.parse(bad.yaml, path: "/etc/ripple/rippled.yml")
    }
    guard let error else { return }
    #expect(error.file == "/etc/ripple/rippled.yml")
    #expect(error.message == bad.message)
    #expect(error.line == bad.line)
    #expect(error.keyPath == bad.keyPath)
    #expect(error.hint == bad.hint)
  }

  @Test func theDescriptionReadsAsOneLine() throws {
    let error = #expect(throws: ConfigError.self) {
      try DaemonConfigLoader.parse("repositories:\n  - {name: a, path: /a, settle: 5}\n", path: "rippled.yml")
    }
    #expect(
      error?.description
        == "rippled.yml:2:33: repositories[0].settle: `5` has no unit (\(durationHint))")
  }

  @Test func yamlSyntaxErrorsCarryTheLine() throws {
    let error = #expect(throws: ConfigError.self) {
      try DaemonConfigLoader.parse("repositories:\n  - {name: a, path: /a\nconcurrency: 1\n", path: "rippled.yml")
    }
    #expect(error?.message.hasPrefix("invalid YAML") == true)
    #expect(error?.line != nil)
  }

  @Test func duplicateKeysAreErrors() throws {
    let error = #expect(throws: ConfigError.self) {
      try DaemonConfigLoader.parse("concurrency: 1\nconcurrency: 2\n" + repos, path: "rippled.yml")
    }
    #expect(error?.message == "duplicate key `concurrency`")
  }

  @Test func theTopLevelMustBeAMapping() throws {
    let error = #expect(throws: ConfigError.self) {
      try DaemonConfigLoader.parse("- isowords\n", path: "rippled.yml")
    }
    #expect(error?.line == 1)
    #expect(error?.message == "expected a mapping, found a list")
  }
}
