import Foundation
import TestSupport
import Testing
import XcodeFixtures

/// `ripple init` through the built binary on three repository shapes (one package; nested packages; an Xcode
/// workspace over packages), its refusals, and the not-ignored warnings of `bootstrap` and `doctor`.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct InitCommandTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples/ci")

  static func manifest(_ name: String, reading variable: String? = nil) -> String {
    // Reading the variable is what init looks for; its test target exists only when the variable is set.
    let condition = variable.map { "Context.environment[\"\($0)\"] == nil ? [] : " } ?? ""
    return """
      // swift-tools-version:5.9
      import PackageDescription

      let package = Package(
        name: "\(name)",
        targets: [.target(name: "\(name)")] + (\(condition)[.testTarget(name: "\(name)Tests", dependencies: ["\(name)"])])
      )

      """
  }

  private func initialize(_ arguments: [String] = [], in repo: TestRepository) throws -> CommandResult {
    try RippleBinary.run(["init"] + arguments, in: repo.root)
  }

  /// Every file of the folder but git's, with its text: what a command wrote, compared as a whole.
  private func snapshot(_ repo: TestRepository) throws -> [String: String] {
    var files: [String: String] = [:]
    let enumerator = try #require(FileManager.default.enumerator(atPath: repo.root))
    while let path = enumerator.nextObject() as? String {
      if path == ".git" { enumerator.skipDescendants() }
      guard !path.hasPrefix(".git/"), let text = repo.read(path) else { continue }
      files[path] = text
    }
    return files
  }

  @Test func onePackage() throws {
    let repo = try TestRepository.checkout()
    try repo.write("Package.swift", Self.manifest("Core"))
    try repo.write("Sources/Core/Core.swift", "public let core = 1\n")
    try repo.write("Tests/CoreTests/CoreTests.swift", "import Testing\n@Test func t() {}\n")
    try repo.write("README.md", "# Core\n")
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("one package")

    let result = try initialize(in: repo)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("packages: .\n"))
    #expect(result.standardOutput.contains("wrote ripple.yml\n"))
    #expect(!result.standardOutput.contains(".gitignore"), ".build is ignored already: .gitignore stays")
    let config = try #require(repo.read("ripple.yml"))
    #expect(config.contains("  ignore:\n    - \"**/*.md\"\n"))
    #expect(!config.contains("manifestEnvironments"), "the manifest reads no variable")
    #expect(repo.read(".gitignore") == ".build/\n")

    // Idempotent: a second run writes nothing and says so.
    let before = try snapshot(repo)
    let again = try initialize(in: repo)
    #expect(again.status == 0, "\(again.standardError)")
    #expect(again.standardOutput.contains("nothing to change: ripple.yml is already what ripple init proposes\n"))
    #expect(try snapshot(repo) == before)

    // The written config is the one Ripple reads: a README edit selects nothing.
    try repo.commitAll("ripple init")
    try repo.append("README.md", "more\n")
    let (tests, _) = try RippleBinary.affectedTests(["--base", "HEAD"], in: repo.root)
    #expect(tests.isEmpty)
  }

  @Test func nestedPackagesWithAnEnvironmentAndGitLab() throws {
    let repo = try TestRepository.checkout()
    try repo.write("Package.swift", Self.manifest("App"))
    try repo.write("Packages/Core/Package.swift", Self.manifest("Core"))
    try repo.write("Packages/Server/Package.swift", Self.manifest("Server", reading: "TEST_SERVER"))
    try repo.write("Packages/Server/.build/checkouts/x/Package.swift", Self.manifest("X"))
    try repo.write("docs/guide.txt", "guide\n")
    try repo.write(".github/workflows/lint.yml", "name: lint\n")
    try repo.commitAll("nested packages")

    let result = try initialize(["--ci", "gitlab"], in: repo)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("packages: ., Packages/Core, Packages/Server\n"))
    #expect(result.standardOutput.contains("reads the environment: Packages/Server/Package.swift (TEST_SERVER)\n"))
    #expect(result.standardOutput.contains("wrote ripple.yml\nwrote .gitignore\nwrote .gitlab-ci.yml\n"))
    let config = try #require(repo.read("ripple.yml"))
    #expect(config.contains("  ignore:\n    - \"docs/**\"\n    - \".github/**\"\n"), "no .md file: no **/*.md")
    #expect(config.contains("  manifestEnvironments:\n    - {}\n    - {TEST_SERVER: \"1\"}\n"))
    #expect(config.contains("#     - {name: linux, environment: {TEST_SERVER: \"1\"}, platforms: [linux]}\n"))
    // No .gitignore: Ripple's own .build is not ignored, so init ignores it.
    #expect(repo.read(".gitignore")?.hasSuffix("\n/.build/\n") == true)
    let example = try String(contentsOf: Self.examples.appendingPathComponent("gitlab-ci.yml"), encoding: .utf8)
    #expect(repo.read(".gitlab-ci.yml") == example)

    let before = try snapshot(repo)
    let again = try initialize(["--ci", "gitlab"], in: repo)
    #expect(again.status == 0, "\(again.standardError)")
    #expect(again.standardOutput.contains("nothing to change"))
    #expect(try snapshot(repo) == before)
  }

  @Test func anXcodeWorkspaceOverPackagesWithGitHub() throws {
    let repo = try TestRepository.checkout()
    for (path, text) in ThinAppFixture().files { try repo.write(path, text) }
    try repo.write("Packages/Core/Package.swift", Self.manifest("Core"))
    try repo.write(
      "MyApp.xcworkspace/contents.xcworkspacedata",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Workspace version = "1.0">
         <FileRef location = "group:App/MyApp.xcodeproj"></FileRef>
         <FileRef location = "group:Packages/Core"></FileRef>
      </Workspace>

      """)
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("an Xcode workspace over a package")

    // --dry-run: the diff of every file, nothing written.
    let before = try snapshot(repo)
    let dry = try initialize(["--ci", "github", "--dry-run"], in: repo)
    #expect(dry.status == 0, "\(dry.standardError)")
    #expect(dry.standardOutput.contains("--- /dev/null\n+++ b/ripple.yml\n@@ -0,0 +1,"))
    #expect(dry.standardOutput.contains("--- /dev/null\n+++ b/.github/workflows/tests.yml\n"))
    #expect(dry.standardOutput.contains("\n+#       workspace: MyApp.xcworkspace\n"))
    #expect(dry.standardError.contains("note: this repository has no remote"), "\(dry.standardError)")
    #expect(try snapshot(repo) == before)

    let result = try initialize(["--ci", "github"], in: repo)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Xcode: MyApp.xcworkspace, App/MyApp.xcodeproj\n"))
    // Bad input: a repository without a remote. The workflow names Ripple's published action, never a
    // placeholder, and init says where it runs; the CI folder is ignored, so adding it selects no test.
    #expect(
      result.standardOutput.contains("note: this repository has no remote: .github/workflows/tests.yml runs once"))
    #expect(!result.standardOutput.contains("<owner>"))
    let config = try #require(repo.read("ripple.yml"))
    #expect(config.contains("# Xcode (in the graph too, rule 12): MyApp.xcworkspace, App/MyApp.xcodeproj.\n"))
    #expect(config.contains("#       workspace: MyApp.xcworkspace\n"))
    #expect(config.contains("# Packages (1): Packages/Core.\n"))
    let example = try String(contentsOf: Self.examples.appendingPathComponent("github-actions.yml"), encoding: .utf8)
    let workflow = try #require(repo.read(".github/workflows/tests.yml"))
    let version = try String(contentsOf: Self.examples.appendingPathComponent("../../VERSION"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(workflow == example.replacingOccurrences(of: "uses: ./\n", with: "uses: ripple-swift/ripple@v\(version)\n"))
    #expect(workflow != example)
    #expect(config.contains("    - \".github/**\"\n"))
    try repo.commitAll("ripple init")
    try repo.write(".github/workflows/tests.yml", workflow + "# edited\n")
    try repo.commitAll("edit the workflow")
    let affected = try RippleBinary.run(["affected", "--base", "HEAD~1", "--format", "json"], in: repo.root)
    #expect(affected.status == 0, "\(affected.standardError)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(affected.standardOutput.utf8)) as? [String: Any])
    #expect(json["runAll"] as? Bool == false, "a CI change selects no test: \(affected.standardOutput)")
    #expect((json["testTargets"] as? [Any])?.isEmpty == true, "\(affected.standardOutput)")
  }

  /// Bad input: a ripple.yml with comments and anchors under `--force`: every line stays, the missing globs are added.
  @Test func anExistingConfigIsChangedOnlyWithForceAndKeepsItsComments() throws {
    let repo = try TestRepository.checkout()
    try repo.write("Package.swift", Self.manifest("Core"))
    try repo.write(".gitignore", ".build/\n")
    try repo.write("README.md", "# Core\n")
    let mine = """
      # Ours: ask #ci first.
      selection:
        unowned: ignore # new files select nothing
        ignore: &quiet ["notes/**"]
      test:
        runs:
          - {name: linux, platforms: [linux]} # the only one

      """
    try repo.write("ripple.yml", mine)
    try repo.commitAll("a config of its own")

    let refused = try initialize(in: repo)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("error: ripple.yml already exists and ripple init would replace it"))
    #expect(refused.standardError.contains("--force"))
    #expect(repo.read("ripple.yml") == mine)

    let forced = try initialize(["--force"], in: repo)
    #expect(forced.status == 0, "\(forced.standardError)")
    #expect(forced.standardOutput.contains("replaced ripple.yml\n"))
    let expected = mine.replacingOccurrences(of: "[\"notes/**\"]", with: "[\"notes/**\", \"**/*.md\"]")
    #expect(repo.read("ripple.yml") == expected)
    let again = try initialize(["--force"], in: repo)
    #expect(again.standardOutput.contains("nothing to change"), "\(again.standardOutput)")
  }

  @Test func aReadOnlyGitignoreStopsEverythingBeforeAnyWrite() throws {
    let repo = try TestRepository.checkout()
    try repo.write("Package.swift", Self.manifest("Core"))
    let mine = """
      generate:
        - id: words
          command: [sh, -c, "echo apple > \\"$RIPPLE_OUTPUT_DIR/words.txt\\""]
          destination: Generated

      """
    try repo.write("ripple.yml", mine)
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("a generated folder, not ignored")
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: repo.path(".gitignore"))
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: repo.path(".gitignore")) }

    let before = try snapshot(repo)
    let result = try initialize(["--force", "--ci", "buildkite"], in: repo)
    #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardError.contains("error: cannot write .gitignore: it is read-only; nothing was written."))
    #expect(try snapshot(repo) == before, "neither ripple.yml nor the workflow is half-done, no temporary file left")
    #expect(!FileManager.default.fileExists(atPath: repo.path(".buildkite")))
  }

  @Test func anUnknownForgeIsAUsageErrorListingTheValidOnes() throws {
    let repo = try TestRepository.checkout()
    try repo.write("Package.swift", Self.manifest("Core"))
    try repo.commitAll("one package")
    let result = try initialize(["--ci", "jenkins"], in: repo)
    #expect(result.status == 2)
    #expect(result.standardError.contains("jenkins"))
    for forge in ["github", "gitlab", "buildkite"] { #expect(result.standardError.contains("'\(forge)'")) }
    #expect(repo.read("ripple.yml") == nil)
  }

  /// `bootstrap` and `doctor` warn about a destination git does not ignore; `init` ignores it, and then what
  /// bootstrap installs is no change at all.
  @Test func bootstrapAndDoctorWarnUntilInitIgnoresTheDestination() throws {
    let repo = try TestRepository.checkout()
    try repo.write("Package.swift", Self.manifest("Core"))
    try repo.write(
      "ripple.yml",
      """
      generate:
        - id: words
          command: [sh, -c, "echo apple > \\"$RIPPLE_OUTPUT_DIR/words.txt\\""]
          destination: Generated

      """)
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("a generated folder, not ignored")

    let warning = "warning: Generated (generate words) is not git-ignored"
    let bootstrap = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(bootstrap.status == 0, "\(bootstrap.standardError)")
    #expect(bootstrap.standardError.contains(warning))
    #expect(try repo.git("status", "--porcelain").contains("Generated/"))
    let doctor = try RippleBinary.run(["doctor"], in: repo.root)
    #expect(doctor.standardOutput.contains("! git-ignored Generated: Generated (generate words) is not git-ignored"))

    let initialized = try initialize(["--force"], in: repo)
    #expect(initialized.status == 0, "\(initialized.standardError)")
    #expect(initialized.standardOutput.contains("updated .gitignore\n"))
    #expect(repo.read(".gitignore")?.hasSuffix("\n/Generated/\n") == true)
    #expect(repo.read("ripple.yml")?.contains("generate:\n  - id: words\n") == true, "generate: is kept")
    let again = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(again.status == 0, "\(again.standardError)")
    #expect(!again.standardError.contains("not git-ignored"))
    #expect(!(try repo.git("status", "--porcelain").contains("Generated/")))
    let doctorAgain = try RippleBinary.run(["doctor"], in: repo.root)
    #expect(!doctorAgain.standardOutput.contains("git-ignored Generated"))
  }
}
