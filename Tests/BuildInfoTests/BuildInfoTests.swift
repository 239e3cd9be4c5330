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

  /// The published repository is recorded once (Publication.swift); action.yml's release-url default, the action's
  /// script and docs/CI.md name the same place, so the workflow `ripple init --ci github` writes works unedited.
  @Test func thePublishedRepositoryIsTheSameEverywhere() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    for path in ["action.yml", "scripts/action-run.sh"] {
      let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
      #expect(text.contains(BuildInfo.releaseBaseURL), "\(path) does not default to \(BuildInfo.releaseBaseURL)")
    }
    let guide = try String(contentsOf: root.appendingPathComponent("docs/CI.md"), encoding: .utf8)
    #expect(guide.contains("uses: \(BuildInfo.publishedRepository)@v"))
    #expect(BuildInfo.actionReference == "\(BuildInfo.publishedRepository)@v\(BuildInfo.version)")
  }

  /// A new user reads the quick start before scrolling (issue 52): it starts within README.md's first 60 lines,
  /// installing is a short block there, and `make demo` and `make test` are named in it.
  @Test func theReadmesQuickStartIsWithinItsFirst60Lines() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let lines = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("## Quick start") })
    #expect(start < 60, "the quick start starts at line \(start + 1)")
    let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
    let quickStart = lines[start..<end].joined(separator: "\n")
    #expect(end <= 60, "the quick start ends at line \(end)")
    for text in ["install.sh", "ripple init", "ripple affected", "ripple test", "`make demo`", "`make test`"] {
      #expect(quickStart.contains(text), "\(text)")
    }
    #expect(lines[..<start].allSatisfy { !$0.hasPrefix("## Install") }, "install details come after it")
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
