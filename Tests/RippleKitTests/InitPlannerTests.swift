import BuildInfo
import ConfigLoading
import Foundation
import RippleCore
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
    #expect(CIForge.github.workflow.contains("uses: \(BuildInfo.publishedRepository)@v\(BuildInfo.version)\n"))
    #expect(!CIForge.github.workflow.contains("<owner>"))
    #expect(CIForge.gitlab.workflow == CIForge.gitlab.example)
  }

  /// Bad input: `--ci github` in a repository without a remote. The workflow needs nothing of this repository's
  /// address (it names Ripple's published action), so it is written whole, with a note on where it runs; the
  /// CI folder is ignored, so adding the workflow selects no test.
  @Test func aGitHubWorkflowInARepositoryWithoutARemote() throws {
    let input = InitInput(files: ["Package.swift"], manifests: ["Package.swift": ""], ci: .github, remote: nil)
    let plan = try InitPlanner.plan(input)
    let workflow = try #require(plan.changes.first { $0.path == ".github/workflows/tests.yml" }).new
    #expect(workflow.contains("uses: \(BuildInfo.actionReference)\n"))
    #expect(!workflow.contains("<owner>") && !workflow.contains("uses: ./\n"))
    #expect(plan.notes.count == 1)
    #expect(plan.notes.first?.contains("no remote") == true)
    let config = try #require(plan.changes.first { $0.path == "ripple.yml" }).new
    #expect(config.contains("  ignore:\n    - \".github/**\"\n"))
    let github = try InitPlanner.plan(
      InitInput(
        files: ["Package.swift"], manifests: ["Package.swift": ""], ci: .github, remote: "git@github.com:o/r.git"))
    #expect(github.notes.isEmpty)
  }

  @Test(arguments: CIForge.allCases) func theCIFilesInitWritesAreIgnored(_ forge: CIForge) throws {
    let plan = try InitPlanner.plan(InitInput(files: ["Package.swift"], manifests: ["Package.swift": ""], ci: forge))
    #expect(plan.findings.ignoreGlobs == [forge.ignoreGlob])
    #expect(Glob(forge.ignoreGlob).matches(forge.destination))
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

  /// Bad input: a ripple.yml with comments and anchors under `--force`. Every line stays; what is missing is added.
  @Test func forcingAConfigWithCommentsAndAnchorsKeepsEveryLineAndAddsWhatIsMissing() throws {
    let existing = """
      # Our team's selection: ask #ci before changing.
      selection:
        unowned: ignore # new files select nothing
        ignore:
          - &docs "old/**"   # the archive
          # more below
          - "notes/**"
        global: [*docs]

      assets:
        - id: audio
          source: {https: ["https://example.com/a.zip"]}
          sha256: "\(String(repeating: "a", count: 64))"
          destination: Resources/Audio

      test:
        runs:
          - &linux {name: server, environment: {TEST_SERVER: "1"}, platforms: [linux]}

      """
    var input = InitInput(
      files: ["Package.swift", "ripple.yml", "README.md"], manifests: ["Package.swift": ""],
      existing: ["ripple.yml": existing], unignoredFolders: ["Resources/Audio"], ci: .github)
    let plan = try InitPlanner.plan(input)
    #expect(plan.conflicts == ["ripple.yml"])
    let config = try #require(plan.changes.first { $0.path == "ripple.yml" }).new
    let added = """
          - "notes/**"
          - "**/*.md"
          - ".github/**"
        global: [*docs]

      """
    #expect(config == existing.replacingOccurrences(of: "    - \"notes/**\"\n  global: [*docs]\n", with: added))
    let loaded = try ConfigLoader.parse(config, path: "ripple.yml")
    #expect(loaded.selection.ignore.map(\.pattern) == ["old/**", "notes/**", "**/*.md", ".github/**"])
    #expect(loaded.selection.global.map(\.pattern) == ["old/**"], "the alias still reads the anchor")
    input.existing["ripple.yml"] = config
    #expect(try InitPlanner.plan(input).changes.map(\.path) == [".gitignore", ".github/workflows/tests.yml"])
  }

  @Test func forcingAddsAnIgnoreKeyAFlowItemOrASectionAndNotesAnAlias() throws {
    func merged(_ text: String) -> (text: String, notes: [String]) {
      var findings = InitFindings()
      findings.ignoreGlobs = ["docs/**"]
      return InitPlanner.mergedConfigText(text, path: "ripple.yml", adding: findings)
    }
    #expect(
      merged("# mine\nselection:\n    unowned: ignore\n").text
        == "# mine\nselection:\n    # Changed files that select no test: the documentation and CI files of this "
        + "repository.\n    ignore:\n      - \"docs/**\"\n    unowned: ignore\n")
    #expect(
      merged("selection:\n  ignore: &i [\"a/**\"] # kept\n").text
        == "selection:\n  ignore: &i [\"a/**\", \"docs/**\"] # kept\n")
    #expect(merged("selection:\n  ignore: []\n").text == "selection:\n  ignore: [\"docs/**\"]\n")
    #expect(
      merged("# only a comment\n").text.hasSuffix(
        "# only a comment\n\nselection:\n  # Changed files that select no test: the documentation and CI files of this repository.\n  ignore:\n    - \"docs/**\"\n"
      ))
    let alias = "selection:\n  global: &g [\"x/**\"]\n  ignore: *g\n"
    let kept = merged(alias)
    #expect(kept.text == alias)
    #expect(
      kept.notes == ["selection.ignore in ripple.yml is *g: add \"docs/**\" to selection.ignore in ripple.yml yourself"]
    )
    #expect(merged("selection:\n  ignore: [\"docs/**\"]\n").text == "selection:\n  ignore: [\"docs/**\"]\n")
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

  /// A reports folder (issue 49): what a run writes there selects no test.
  @Test func aReportsFolderIsIgnoredByTheProposedSelection() throws {
    let input = InitInput(
      files: ["Package.swift", "reports/junit.xml", "Sources/A/A.swift"], manifests: ["Package.swift": ""],
      unignoredFolders: [])
    let plan = try InitPlanner.plan(input)
    let config = try #require(plan.changes.first { $0.path == "ripple.yml" }?.new)
    #expect(config.contains("    - \"reports/**\""), "\(config)")
  }
}
