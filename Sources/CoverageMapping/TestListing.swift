import TestImpact

/// The two test libraries a SwiftPM test binary runs, and how one test of each is run alone (pure).
public enum TestLibrary: String, Sendable, Hashable, Codable {
  case xctest
  case swiftTesting

  /// The arguments that list this library's tests.
  public var listArguments: [String] {
    switch self {
    case .xctest: ["--list-tests"]
    case .swiftTesting: ["--testing-library", "swift-testing", "--list-tests"]
    }
  }

  /// The arguments that run one test and nothing else.
  public func runArguments(_ test: TestID) -> [String] {
    switch self {
    case .xctest: [test.id]
    case .swiftTesting: ["--testing-library", "swift-testing", "--filter", Self.anchoredPattern(test)]
    }
  }

  /// `^CoreTests\.Suite/name\(\)(/|$)`: the test's id and its parameterized cases, nothing that only starts alike.
  public static func anchoredPattern(_ test: TestID) -> String {
    let special = Set("\\^$.|?*+()[]{}")
    return "^" + test.id.map { special.contains($0) ? "\\\($0)" : String($0) }.joined() + "(/|$)"
  }

  /// Whether the output of a one-test run says exactly one test ran.
  public func ranOneTest(_ output: String) -> Bool {
    switch self {
    case .xctest: output.contains("Executed 1 test,")
    case .swiftTesting: output.contains("Test run with 1 test ")
    }
  }
}

/// Reads `--list-tests` output (pure).
public enum TestListing {
  /// The tests of `module` (the test target) in the listing: lines `Module.Suite/test` or `Module/test`, kept exact.
  public static func tests(in output: String, module: String) -> [TestID] {
    output.split(whereSeparator: \.isNewline).map(String.init)
      .filter { $0.hasPrefix(module + ".") || $0.hasPrefix(module + "/") }
      .map(TestID.init)
  }
}
