import RippleConfig
import Testing
import Yams

@testable import ConfigLoading

/// `PlainScalarTag` (configs are composed without Yams' regexes) against Yams' `Resolver.default`, the
/// reference, on scalars of every kind and near misses of each.
@Suite struct PlainScalarTagTests {
  static let samples: [String] = [
    "", "~", "null", "Null", "NULL", "nul", "NUll",
    "yes", "Yes", "YES", "yEs", "no", "No", "NO", "true", "True", "TRUE", "tRue", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF", "y", "n",
    "0", "-0", "+0", "7", "42", "-42", "1_000", "0b1010", "-0b1_0", "0b", "0b2", "017", "0o17", "0o", "0_", "09",
    "0x1F", "-0xff_FF", "0x", "0xG", "190:20:30", "1:5", "1:60", "1:7:", "12:345", "+1:59",
    "1.5", "-1.5", "1.", ".5", "._5", ".5e+3", ".5e3", "1e3", "1.5E-10", "1e", "1.5.2", "1_0.0_1",
    "190:20:30.15", "1:20.", "1:2:3.4", ".inf", "-.inf", "+.Inf", ".INF", "inf", ".nan", ".NaN", ".NAN", "-.nan",
    "<<", "<", "=", "==",
    "2001-12-14", "2001-12-1", "2001-1-1t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
    "2001-12-14T21:59:43Z", "2001-12-14\t21:59:43", "2001-12-14T21:59:43 Z", "2001-12-14T21:59:4",
    "2001-12-14T21:59:43+05:3", "20011-12-14",
    "main", "feature/x", "1.2.3", "v1", "Net", "*.swift", "-", "+", ".", "::", "1__", "-_1",
  ]

  @Test(arguments: samples) func resolvesAsYamsDefaultResolver(text: String) {
    let expected = Resolver.default.resolveTag(of: Node(text))
    #expect(PlainScalarTag.resolve(text) == expected, "`\(text)`")
  }

  /// In a config: an unquoted number is a number, an explicit `!!str` or quotes make it a string, and an
  /// unquoted `yes` key is a boolean (keys must be strings), as with Yams' default resolver.
  @Test func configScalarsKeepTheirTags() throws {
    let error = try failure("selection:\n  global: [Makefile, 1.5]\n")
    #expect(error.message == "expected a string, found the number `1.5`")
    let config = try ConfigLoader.parse("selection:\n  global: [!!str 1.5, \"2\", ~x]\n", path: "ripple.yml")
    #expect(config.selection.global.map(\.pattern) == ["1.5", "2", "~x"])
    let key = try failure("selection:\n  inputs:\n    yes: [\"a\"]\n")
    #expect(key.message.contains("keys must be strings, found the boolean `yes`"))
  }
}
