import Foundation
import Testing

@testable import RippleKit

/// `ripple init`'s pure core: the tree as values in, the files to write out (no file system, no git).
@Suite struct InitPlannerTests {
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// One source of truth: the compiled-in workflows are examples/ci's files, byte for byte. When this fails,
  /// run scripts/embed-ci-examples.sh.
  @Test(arguments: CIForge.allCases) func theEmbeddedWorkflowIsTheExample(_ forge: CIForge) throws {
    let file = Self.repositoryRoot.appendingPathComponent("examples/ci/" + forge.exampleName)
    let example = try String(contentsOf: file, encoding: .utf8)
    #expect(forge.example == example, "run scripts/embed-ci-examples.sh")
  }

  @Test func theGitHubWorkflowNamesTheActionAsAnotherRepositoryUsesIt() {
    #expect(CIForge.github.example.contains("uses: ./\n"))
    #expect(!CIForge.github.workflow.contains("uses: ./\n"))
    #expect(CIForge.github.workflow.contains("uses: <owner>/ripple@v1\n"))
    #expect(CIForge.gitlab.workflow == CIForge.gitlab.example)
  }

  @Test func manifestsReadingTheEnvironmentNameTheirVariables() {
    let manifest = """
      import PackageDescription
      let server = Context.environment["TEST_SERVER"] != nil
      let ci = ProcessInfo.processInfo.environment.keys.contains("CI")
      let package = Package(name: "P")
      """
    #expect(InitPlanner.environmentVariables(in: manifest) == ["CI", "TEST_SERVER"])
    #expect(InitPlanner.environmentVariables(in: "let env = ProcessInfo.processInfo.environment\n") == [])
    #expect(InitPlanner.environmentVariables(in: "let package = Package(name: \"P\")\n") == nil)
  }

  @Test func aProposalIgnoresOnlyTheDocumentationAndCIFilesThatExist() throws {
    let input = InitInput(
      files: [
        "Package.swift", "README.md", "Sources/A/A.swift", ".github/workflows/ci.yml", "Packages/B/Package.swift",
      ],
      manifests: ["Package.swift": "let x = Context.environment[\"TEST_SERVER\"]\n", "Packages/B/Package.swift": ""])
    let plan = try InitPlanner.plan(input)
    #expect(plan.findings.packages == [".", "Packages/B"])
    #expect(plan.findings.ignoreGlobs == ["**/*.md", ".github/**"])
    #expect(plan.findings.environmentManifests == [.init(path: "Package.swift", variables: ["TEST_SERVER"])])
    let config = try #require(plan.changes.first { $0.path == "ripple.yml" })
    #expect(config.old == nil)
    #expect(config.new.contains("  ignore:\n    - \"**/*.md\"\n    - \".github/**\"\n"))
    #expect(!config.new.contains("docs/**"))
    #expect(config.new.contains("  manifestEnvironments:\n    - {}\n    - {TEST_SERVER: \"1\"}\n"))
    #expect(config.new.contains("# test:\n#   runs:\n"))
    #expect(plan.conflicts.isEmpty)
    #expect(!plan.changes.contains { $0.path == ".gitignore" }, "nothing unignored, nothing to add")
  }

  @Test func aSecondPlanOverItsOwnOutputChangesNothing() throws {
    var input = InitInput(
      files: ["Package.swift", "docs/guide.md"], manifests: ["Package.swift": ""], unignoredFolders: [".build"],
      ci: .gitlab)
    let first = try InitPlanner.plan(input)
    #expect(first.changes.map(\.path) == ["ripple.yml", ".gitignore", ".gitlab-ci.yml"])
    // The second run sees the files the first wrote; `.gitlab-ci.yml` is init's own, not a CI file to ignore.
    for change in first.changes { input.existing[change.path] = change.new }
    input.files += ["ripple.yml", ".gitignore", ".gitlab-ci.yml"]
    input.unignoredFolders = []
    let second = try InitPlanner.plan(input)
    #expect(second.changes.isEmpty)
    #expect(second.unchanged == ["ripple.yml", ".gitlab-ci.yml"])
  }

  @Test func replacingAConfigKeepsEverySectionButSelection() throws {
    let existing = """
      # mine
      selection:
        ignore: ["old/**"]
      assets:
        - id: audio
          source: {https: ["https://example.com/a.zip"]}
          sha256: "\(String(repeating: "a", count: 64))"
          destination: Resources/Audio

      test:
        runs:
          - {name: server, environment: {TEST_SERVER: "1"}}
      """
    var input = InitInput(
      files: ["Package.swift", "ripple.yml"], manifests: ["Package.swift": ""], existing: ["ripple.yml": existing],
      unignoredFolders: ["Resources/Audio"])
    let plan = try InitPlanner.plan(input)
    #expect(plan.conflicts == ["ripple.yml"])
    let config = try #require(plan.changes.first { $0.path == "ripple.yml" }).new
    #expect(!config.contains("old/**"))
    #expect(config.contains("assets:\n  - id: audio\n"))
    #expect(config.contains("test:\n  runs:\n    - {name: server"))
    #expect(!config.contains("# test:"), "a kept test: section needs no example")
    let gitignore = try #require(plan.changes.first { $0.path == ".gitignore" })
    #expect(gitignore.old == nil && gitignore.new.hasSuffix("/Resources/Audio/\n"))
    input.existing["ripple.yml"] = config
    #expect(try InitPlanner.plan(input).changes.map(\.path) == [".gitignore"], "the replaced file is stable")
  }

  @Test func gitignoreLinesAreAppendedNotAConflict() throws {
    let input = InitInput(
      files: ["Package.swift"], manifests: ["Package.swift": ""], existing: [".gitignore": "/.build"],
      unignoredFolders: ["Resources/Audio", "Generated"])
    let plan = try InitPlanner.plan(input)
    let gitignore = try #require(plan.changes.first { $0.path == ".gitignore" })
    #expect(gitignore.new.hasPrefix("/.build\n\n# "))
    #expect(gitignore.new.hasSuffix("\n/Generated/\n/Resources/Audio/\n"))
    #expect(plan.conflicts.isEmpty)
  }

  @Test func anXcodeWorkspaceGetsAnXcodebuildRunExample() throws {
    let input = InitInput(
      files: ["App.xcworkspace/contents.xcworkspacedata", "App/App.xcodeproj/project.pbxproj", "Core/Package.swift"],
      manifests: ["Core/Package.swift": ""])
    let plan = try InitPlanner.plan(input)
    #expect(plan.findings.xcodeWorkspaces == ["App.xcworkspace"])
    #expect(plan.findings.xcodeProjects == ["App/App.xcodeproj"])
    let config = try #require(plan.changes.first).new
    #expect(config.contains("#       workspace: App.xcworkspace\n"))
  }

  @Test func theDiffOfANewFileAndOfAnEdit() {
    #expect(
      UnifiedDiff.render(path: "a.txt", old: nil, new: "x\ny\n")
        == "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n")
    let old = (1...10).map { "l\($0)\n" }.joined()
    let new = old.replacingOccurrences(of: "l5\n", with: "five\n") + "l11\n"
    #expect(
      UnifiedDiff.render(path: "f", old: old, new: new)
        == "--- a/f\n+++ b/f\n@@ -2,9 +2,10 @@\n l2\n l3\n l4\n-l5\n+five\n l6\n l7\n l8\n l9\n l10\n+l11\n")
    #expect(UnifiedDiff.render(path: "f", old: old, new: old) == "")
  }
}
