import ConfigLoading
import RippleConfig
import RippleCore
import Testing

/// `test.granularity` and `test.alwaysRun` (docs/DESIGN.md, "Below the target").
@Suite struct GranularityParseTests {
  @Test func granularityAndAlwaysRunTests() throws {
    let config = try ConfigLoader.parse(
      """
      test:
        granularity: test
        alwaysRun: ["AppTests.SmokeTests/testLaunch", "AppTests.Suite/`starts up`()"]
      """, path: "ripple.yml")
    #expect(config.test.granularity == .test)
    #expect(config.test.alwaysRun == ["AppTests.SmokeTests/testLaunch", "AppTests.Suite/`starts up`()"])
    #expect(try ConfigLoader.parse("test: {}\n", path: "ripple.yml").test.granularity == .target)
  }

  @Test(arguments: [
    ("test:\n  granularity: function\n", 2, "`function` is not a granularity"),
    ("test:\n  alwaysRun: [AppTests]\n", 2, "`AppTests` is not a test"),
    ("test:\n  alwaysRun: [\"AppTests.S/\"]\n", 2, "is not a test"),
    ("test:\n  alwaysRun: [\"/t\"]\n", 2, "is not a test"),
  ])
  func badInputIsAConfigErrorWithItsLine(text: String, line: Int, message: String) throws {
    let error = try #require(throws: ConfigError.self) { try ConfigLoader.parse(text, path: "ripple.yml") }
    #expect(error.category == .usage)
    #expect(error.line == line, "\(error.description)")
    #expect(error.description.contains(message), "\(error.description)")
  }
}
