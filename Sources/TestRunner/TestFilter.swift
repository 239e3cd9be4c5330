import RippleCore

/// Builds the anchored regular expressions `swift test --filter` takes.
///
/// Test identifiers look like `Target.Class/testMethod` (XCTest) and `Target.Suite/test()` (Swift
/// Testing, which appends `/File.swift:line:column` internally — so a per-test filter ends in `(/|$)`
/// rather than `$`).
public enum TestFilter {
  /// `^(A|B)\.`: every test of the given targets.
  public static func targets(_ names: [String]) -> String {
    "^(" + names.sorted().map(escape).joined(separator: "|") + ")\\."
  }

  /// The given targets, those in `suites` only in part (`SuiteFilter`): `^(A\.|B\.(S)(/|\.|$))`; without
  /// suites the same as `targets(_:)`.
  public static func targets(_ names: [String], suites: [String: SuiteScope]) -> String {
    SuiteFilter.pattern(targets: names, scopes: suites)
  }

  /// `^(A\.C/t|B\.S/u\(\))(/|$)`: exactly these tests, given as full identifiers.
  public static func tests(_ identifiers: [String]) -> String {
    "^(" + identifiers.sorted().map(escape).joined(separator: "|") + ")(/|$)"
  }

  /// Escapes every character with a meaning in an ICU / NSRegularExpression pattern (`SuiteFilter.escape`).
  public static func escape(_ text: String) -> String { SuiteFilter.escape(text) }
}
