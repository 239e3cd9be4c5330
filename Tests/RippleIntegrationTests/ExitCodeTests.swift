import Foundation
import TestSupport
import Testing

/// Bad input gets a clear error and the exit code of its category (docs/DESIGN.md, "Exit codes").
@Suite(.serialized, .exclusive(.cooperativeThread)) struct ExitCodeTests {
  @Test func notAGitRepositoryIsAnEnvironmentError() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-nogit-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let result = try RippleBinary.run(["changes"], in: dir)
    #expect(result.status == 3)
    #expect(result.standardError.contains(dir), "names the path: \(result.standardError)")
  }

  @Test func unknownRevisionIsAUsageError() throws {
    let repo = try ModularFixture.make()
    let result = try RippleBinary.run(["affected", "--base", "no-such-branch"], in: repo.root)
    #expect(result.status == 2)
    #expect(result.standardError.contains("no-such-branch"))
  }

  @Test func badConfigIsAUsageErrorWithFileAndLine() throws {
    let repo = try ModularFixture.make()
    try repo.write("ripple.yml", "selection:\n  unowned: sometimes\n")
    let result = try RippleBinary.run(["affected"], in: repo.root)
    #expect(result.status == 2)
    #expect(result.standardError.contains("ripple.yml"))
    #expect(result.standardError.contains("2"), "the line number: \(result.standardError)")
  }

  @Test(arguments: [
    ["affected", "--shards", "0", "--format", "matrix"], ["affected", "--shards", "2", "--format", "json"],
    ["affected", "--format", "nonsense"], ["no-such-command"], ["results", "keygen", "--name", "ci main"],
    ["affected", "--format", "buildkite", "--job-artifacts-from", "ripple-plan"],
  ])
  func usageErrorsExitTwo(arguments: [String]) throws {
    let repo = try ModularFixture.make()
    let result = try RippleBinary.run(arguments, in: repo.root)
    #expect(result.status == 2, "\(arguments): \(result.standardError)")
    #expect(!result.standardError.isEmpty)
  }

  @Test func versionAndHelpExitZero() throws {
    let version = try RippleBinary.run(["--version"], in: "/")
    #expect(version.status == 0)
    #expect(!version.standardOutput.isEmpty)
    let help = try RippleBinary.run(["affected", "--help"], in: "/")
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("--base"))
  }

  /// `--version --verbose`: the one version, then the commit, the Swift version and the libraries loaded.
  @Test func verboseVersionNamesCommitSwiftAndLibraries() throws {
    let version = try RippleBinary.run(["--version"], in: "/").standardOutput
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let result = try RippleBinary.run(["--version", "--verbose"], in: "/")
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "ripple \(version)", "\(lines)")
    #expect(lines.contains { $0.hasPrefix("commit: ") })
    #expect(lines.contains { $0.hasPrefix("swift: 6.") }, "\(lines)")
    #expect(lines.contains(where: { $0.range(of: #"^libgit2: \d+\.\d+\.\d+$"#, options: .regularExpression) != nil }))
    #expect(lines.contains { $0.hasPrefix("libarchive: libarchive 3.") }, "\(lines)")
  }

  /// A usage error exits while libgit2 may still be setting up on its own thread (GitLibrary.prepareInBackground):
  /// the exit waits for it. Without the wait, 3 of 300 such exits of a release build died of SIGSEGV in the TLS
  /// libraries' exit handlers (a debug build parses slower, so the window is narrower there).
  @Test func anEarlyExitWhileLibgit2SetsUpIsClean() throws {
    for _ in 0..<60 {
      let result = try RippleBinary.run(["changes", "--no-such-option"], in: "/")
      #expect(result.status == 2, "\(result.standardError)")
      #expect(result.standardError.contains("--no-such-option"))
    }
  }

  @Test func shallowCloneWithoutTheMergeBaseIsAClearError() throws {
    let origin = try ModularFixture.make()
    try origin.git("checkout", "-q", "-b", "feature")
    try origin.append("Sources/AppCore/AppCore.swift", "// feature\n")
    try origin.commitAll("feature work")
    try origin.git("checkout", "-q", "main")
    try origin.append("README.md", "main moves on\n")
    try origin.commitAll("main work")
    let clone = try TestRepository.checkout()
    try run([
      "/usr/bin/git", "clone", "-q", "--depth", "1", "--no-single-branch", "file://" + origin.root, clone.root + "/c",
    ])
    let result = try RippleBinary.run(
      ["affected", "--base", "origin/main", "--head", "origin/feature"], in: clone.root + "/c")
    #expect(result.status != 0)
    #expect(result.standardError.contains("shallow"), "\(result.standardError)")
    #expect(result.standardError.contains("--unshallow") || result.standardError.contains("--deepen"))
  }

  @Test func doctorReportsEachCheck() throws {
    let repo = try ModularFixture.make()
    // The checks' children (`swift --version` leaves a `TemporaryDirectory.*` folder) litter no TMPDIR.
    let temporary = repo.root + "/../doctor-tmp"
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let result = try RippleBinary.run(["doctor"], in: repo.root, environment: ["TMPDIR": temporary])
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [], "doctor left files in TMPDIR")
    for name in ["ripple", "libgit2", "libarchive", "swift", "repository", "config", "cache"] {
      #expect(result.standardOutput.contains("✓ \(name)"), "\(name) in \(result.standardOutput)")
    }
    let version = try RippleBinary.run(["--version"], in: "/").standardOutput
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(result.standardOutput.contains("✓ ripple: ripple \(version) (commit "), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("✓ libarchive: libarchive 3."), "\(result.standardOutput)")
    let broken = try RippleBinary.run(["doctor"], in: repo.root, environment: ["RIPPLE_SWIFT": "/nonexistent/swift"])
    #expect(broken.status == 1)
    #expect(broken.standardOutput.contains("✗ swift"))
    #expect(broken.standardOutput.contains("fix:"))
  }
}
