import ConfigLoading
import RippleConfig
import Testing

/// `status:` of a rippled.yml repository and `http.publicURL`.
@Suite struct DaemonStatusConfigTests {
  static func parse(_ status: String, http: String = "") throws -> DaemonConfiguration {
    try DaemonConfigLoader.parse(
      http + "repositories:\n  - name: shop\n    remote: /srv/git/shop.git\n    status: " + status + "\n",
      path: "rippled.yml")
  }

  @Test func aStatusTargetPerRepository() throws {
    let config = try Self.parse(
      "{provider: gitlab, api: \"https://gitlab.example.com/api/v4/\", repository: \"group/shop\", tokenFile: /etc/rippled/gitlab-token, context: ripple/linux}",
      http: "http:\n  publicURL: https://ci.example.com/ripple/\n")
    #expect(
      config.repositories.first?.status
        == CommitStatusSettings(
          provider: .gitlab, api: "https://gitlab.example.com/api/v4", repository: "group/shop",
          tokenFile: "/etc/rippled/gitlab-token", context: "ripple/linux"))
    #expect(config.http.publicURL == "https://ci.example.com/ripple")
    let loopback = try Self.parse("{provider: github, api: \"http://127.0.0.1:8080\", repository: a/b, tokenFile: /t}")
    #expect(loopback.repositories.first?.status?.context == "ripple")
  }

  @Test(arguments: [
    ("{provider: bitbucket, api: \"https://x\", repository: a/b, tokenFile: /t}", "not a supported forge"),
    ("{provider: github, api: \"http://api.example.com\", repository: a/b, tokenFile: /t}", "must use https"),
    ("{provider: github, api: \"api.github.com\", repository: a/b, tokenFile: /t}", "is not a URL"),
    ("{provider: gitea, api: \"https://x\", repository: shop, tokenFile: /t}", "not an owner/name"),
    ("{provider: github, api: \"https://x\", repository: a/b}", "tokenFile"),
    ("{provider: github, api: \"https://x\", repository: a/b, tokenFile: /t, context: \"\"}", "cannot be empty"),
  ])
  func badStatusIsAConfigErrorWithItsLine(status: String, message: String) throws {
    let error = try #require(throws: ConfigError.self) { try Self.parse(status) }
    #expect(error.category == .usage)
    #expect(error.line == 4, "\(error.description)")
    #expect(error.description.contains(message), "\(error.description)")
  }

  @Test func aPublicURLOverPlainHTTPIsOnlyForLoopback() throws {
    let error = try #require(throws: ConfigError.self) {
      try DaemonConfigLoader.parse("http:\n  publicURL: http://ci.example.com\n", path: "rippled.yml")
    }
    #expect(error.description.contains("must use https"))
  }
}
