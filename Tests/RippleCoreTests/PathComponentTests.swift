import Testing

@testable import RippleCore

/// The one sanitizer for folder names: package paths, test run names, branch names.
@Suite struct PathComponentTests {
  @Test func safeNamesStayAsTheyAre() {
    for name in ["main", "release-1.2", "client", "Core.swift", "v1"] {
      #expect(PathComponent.escaped(name) == name)
    }
  }

  @Test func everyOtherByteBecomesItsHexValue() {
    #expect(PathComponent.escaped("Packages/Core") == "Packages_2FCore")
    #expect(PathComponent.escaped("server-linux_2") == "server-linux_5F2")
    #expect(PathComponent.escaped("iOS 18 / 100%") == "iOS_2018_20_2F_20100_25")
    #expect(PathComponent.escaped("ü") == "_C3_BC")
  }

  @Test func resultsAreSafeForTheToolchainAndOneComponent() {
    // `%` breaks clang's module cache; `/` would nest folders; a leading `.` would hide or climb.
    for name in ["..", ".", ".hidden", "a b/../c", "ünïcode", "", "feature/x", "100%"] {
      let escaped = PathComponent.escaped(name)
      #expect(
        !escaped.contains("/") && !escaped.contains("%") && !escaped.hasPrefix(".") && !escaped.isEmpty,
        "\(name) → \(escaped)")
    }
  }

  @Test func distinctNamesGetDistinctFolders() {
    let names = ["feature/x", "feature-x", "feature_x", "feature%x", "feature_2Fx", "", "_", ".", "_2E", "..", "a.b"]
    #expect(Set(names.map(PathComponent.escaped)).count == names.count)
  }
}
