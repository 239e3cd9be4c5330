import ConfigLoading
import RippleConfig
import Testing

/// `canary:` and `notify:` of a rippled.yml repository.
@Suite struct DaemonCanaryNotifyConfigTests {
  static func parse(_ key: String, _ value: String, branches: String = "") throws -> DaemonConfiguration {
    try DaemonConfigLoader.parse(
      "repositories:\n  - name: shop\n    remote: /srv/git/shop.git\n    \(key): " + value + "\n" + branches,
      path: "rippled.yml")
  }

  @Test func aCanaryRunsThePrimaryBranchEverySoOften() throws {
    let config = try Self.parse("canary", "{every: 24h}", branches: "    branches: [\"release/*\", develop]\n")
    #expect(config.repositories.first?.canary == CanarySettings(every: .seconds(86_400), branch: "develop"))
    let named = try Self.parse("canary", "{every: 90m, branch: trunk}")
    #expect(named.repositories.first?.canary == CanarySettings(every: .seconds(5400), branch: "trunk"))
    #expect(try Self.parse("canary", "{every: 1d}").repositories.first?.canary?.branch == "main")
  }

  @Test(arguments: [
    ("{every: 0h}", "more than zero"),
    ("{every: daily}", "is not a duration"),
    ("{every: 24}", "has no unit"),
    ("{}", "every"),
    ("{every: 1h, at: noon}", "at"),
  ])
  func badCanaryIsAConfigErrorWithItsLine(canary: String, message: String) throws {
    let error = try #require(throws: ConfigError.self) { try Self.parse("canary", canary) }
    #expect(error.category == .usage)
    #expect(error.line == 4, "\(error.description)")
    #expect(error.description.contains(message), "\(error.description)")
  }

  @Test func aCanaryNeedsAPlainBranchName() throws {
    let error = try #require(throws: ConfigError.self) {
      try Self.parse("canary", "{every: 24h}", branches: "    branches: [\"release/*\"]\n")
    }
    #expect(error.description.contains("every entry of `branches` is a pattern"))
  }

  @Test func aWebhookIsHTTPSOrLoopback() throws {
    let config = try Self.parse("notify", "{webhook: \"https://hooks.slack.com/services/T/B/x\"}")
    #expect(config.repositories.first?.notify == NotifySettings(webhook: "https://hooks.slack.com/services/T/B/x"))
    #expect(try Self.parse("notify", "{webhook: \"http://127.0.0.1:9000/hook\"}").repositories.first?.notify != nil)
    for (value, message) in [
      ("{webhook: \"http://chat.example.com/hook\"}", "must use https"),
      ("{webhook: chat.example.com}", "is not a URL"),
      ("{hook: \"https://x\"}", "hook"),
    ] {
      let error = try #require(throws: ConfigError.self) { try Self.parse("notify", value) }
      #expect(error.line == 4, "\(error.description)")
      #expect(error.description.contains(message), "\(error.description)")
    }
  }
}
