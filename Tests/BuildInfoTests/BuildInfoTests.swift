import Foundation
import Testing

@testable import BuildInfo

@Suite struct BuildInfoTests {
  /// VERSION is the one source of truth: the committed stamp must say the same (run
  /// scripts/stamp-version.sh after editing VERSION).
  @Test func committedStampMatchesTheVersionFile() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let file = try String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)
    #expect(BuildInfo.version == file.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(BuildInfo.version.split(separator: ".").count >= 3)
  }

  @Test func verboseDescriptionNamesEveryComponent() {
    let text = BuildInfo.verboseDescription(
      program: "ripple", libraries: [("libgit2", "1.5.1"), ("libarchive", "libarchive 3.6.2")])
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "ripple \(BuildInfo.version)")
    #expect(lines.contains { $0.hasPrefix("commit: ") })
    #expect(lines.contains("swift: \(BuildInfo.swiftVersion)"))
    #expect(lines.contains("license: Apache-2.0"))
    #expect(lines.suffix(2) == ["libgit2: 1.5.1", "libarchive: libarchive 3.6.2"])
  }

  @Test func theLicenceNamedIsTheRepositorysLicenseFile() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent("LICENSE"), encoding: .utf8)
    #expect(BuildInfo.license == "Apache-2.0")
    #expect(text.contains("Apache License") && text.contains("Version 2.0, January 2004"))
  }

  @Test func verboseVersionNeedsBothFlagsAndNothingElse() {
    #expect(BuildInfo.asksForVerboseVersion(["--version", "--verbose"]))
    #expect(BuildInfo.asksForVerboseVersion(["--verbose", "--version"]))
    #expect(!BuildInfo.asksForVerboseVersion(["--version"]))
    #expect(!BuildInfo.asksForVerboseVersion(["affected", "--version", "--verbose"]))
  }
}
