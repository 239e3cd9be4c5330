import ArgumentParser
import RippleKit

/// `--ci`'s values: RippleKit's forges, which ArgumentParser lists when given another.
enum CIOption: String, ExpressibleByArgument, CaseIterable {
  case github, gitlab, buildkite

  var forge: CIForge { CIForge(rawValue: rawValue)! }
}

struct InitCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Propose a ripple.yml for this repository, git-ignore what bootstrap writes, and add a CI workflow.",
    discussion: """
      Finds the packages, Xcode projects and workspaces, and the manifests that read the environment, and \
      writes a commented ripple.yml (selection.ignore for the documentation and CI files found, \
      manifestEnvironments for the variables the manifests read, a commented test.runs example). Folders \
      that bootstrap writes and git does not ignore are appended to .gitignore. With --ci, the workflow of \
      examples/ci for that forge is written too (GitHub's names Ripple's published action and this version), \
      and its CI files are ignored in ripple.yml, so adding CI selects no test. A second run changes nothing. \
      An existing file is changed only with --force; an existing ripple.yml keeps every line, comment and \
      anchor, and gets only the ignore globs it lacks. Nothing is written unless everything can be.
      Exit status: 0 done or nothing to do, 2 a file exists and --force was not given, 3 a file cannot be written.
      """
  )

  @OptionGroup var repository: RepositoryOptions

  @Option(help: "Also write the CI workflow for this forge (from examples/ci).")
  var ci: CIOption?

  @Flag(help: "Replace existing files that differ from the proposal.")
  var force = false

  @Flag(help: "Print a unified diff of what would be written; write nothing.")
  var dryRun = false

  func run() async throws {
    let workspace = try repository.openWorkspace()
    let plan = try workspace.planInit(ci: ci?.forge)
    if dryRun {
      for change in plan.changes {
        print(UnifiedDiff.render(path: change.path, old: change.old, new: change.new), terminator: "")
      }
      Terminal.standardError.write(report(plan.findings))
      if !plan.conflicts.isEmpty && !force {
        Terminal.standardError.write(
          "without --force, ripple init would refuse to replace \(plan.conflicts.joined(separator: ", "))\n")
      }
      if plan.changes.isEmpty { Terminal.standardError.write("nothing to change\n") }
      for note in plan.notes { Terminal.standardError.write("note: \(note)\n") }
      return
    }
    if !plan.conflicts.isEmpty && !force { throw InitError.wouldReplace(plan.conflicts) }
    try workspace.applyInit(plan)
    print(report(plan.findings), terminator: "")
    for change in plan.changes {
      print("\(change.old == nil ? "wrote" : change.path == ".gitignore" ? "updated" : "replaced") \(change.path)")
    }
    if plan.changes.isEmpty {
      let files = plan.unchanged.joined(separator: ", ")
      print("nothing to change: \(files) \(plan.unchanged.count == 1 ? "is" : "are") already what ripple init proposes")
    }
    for note in plan.notes { print("note: \(note)") }
  }

  private func report(_ findings: InitFindings) -> String {
    var lines = ["packages: " + (findings.packages.isEmpty ? "none" : findings.packages.joined(separator: ", "))]
    let xcode = findings.xcodeWorkspaces + findings.xcodeProjects
    if !xcode.isEmpty { lines.append("Xcode: " + xcode.joined(separator: ", ")) }
    for manifest in findings.environmentManifests {
      let variables =
        manifest.variables.isEmpty ? "variables it does not name" : manifest.variables.joined(separator: ", ")
      lines.append("reads the environment: \(manifest.path) (\(variables))")
    }
    return lines.map { $0 + "\n" }.joined()
  }
}
