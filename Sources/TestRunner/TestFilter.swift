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
  /// A nested suite (`T.Outer.Inner/t()`, as results name it) matches Swift Testing's `T.Outer/Inner/t()`.
  public static func tests(_ identifiers: [String]) -> String {
    "^(" + identifiers.sorted().map(escapeIdentifier).joined(separator: "|") + ")(/|$)"
  }

  /// `Target.Outer.Inner/t()` → `Target\.Outer[./]Inner/t\(\)`; a suite-less `Target.f()` escaped as it is.
  static func escapeIdentifier(_ identifier: String) -> String {
    guard identifier.contains("/"), let dot = identifier.firstIndex(of: ".") else { return escape(identifier) }
    return escape(String(identifier[..<dot])) + "\\."
      + SuiteFilter.escapeTest(String(identifier[identifier.index(after: dot)...]))
  }

  /// `--skip` for what targets run as a remainder leave out (`SuiteFilter.skipPattern`); nil: nothing.
  public static func skip(_ names: [String], suites: [String: SuiteScope]) -> String? {
    SuiteFilter.skipPattern(targets: names, scopes: suites)
  }

  /// Escapes every character with a meaning in an ICU / NSRegularExpression pattern (`SuiteFilter.escape`).
  public static func escape(_ text: String) -> String { SuiteFilter.escape(text) }
}
