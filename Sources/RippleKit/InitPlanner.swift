import BuildInfo
import ConfigLoading
import Foundation
import RippleCore
import XcodeLoading

/// The CI systems `ripple init --ci` writes a workflow for, each from its example in examples/ci.
public enum CIForge: String, CaseIterable, Sendable {
  case github, gitlab, buildkite

  /// Where the workflow goes in the repository (the example's own advice for GitHub).
  public var destination: String {
    switch self {
    case .github: ".github/workflows/tests.yml"
    case .gitlab: ".gitlab-ci.yml"
    case .buildkite: ".buildkite/pipeline.yml"
    }
  }

  /// The example's file name under examples/ci.
  public var exampleName: String {
    switch self {
    case .github: "github-actions.yml"
    case .gitlab: "gitlab-ci.yml"
    case .buildkite: "buildkite.yml"
    }
  }

  /// examples/ci's text, as compiled in (scripts/embed-ci-examples.sh).
  public var example: String {
    switch self {
    case .github: CIExamples.githubActions
    case .gitlab: CIExamples.gitlabCi
    case .buildkite: CIExamples.buildkite
    }
  }

  /// What init writes: the example, except that GitHub's names the action as another repository uses it,
  /// by Ripple's published repository and this version's tag (`uses: ./` is Ripple's own repository's
  /// action.yml; BuildInfo.actionReference).
  public var workflow: String {
    self == .github
      ? example.replacingOccurrences(of: "uses: ./\n", with: "uses: \(BuildInfo.actionReference)\n") : example
  }

  /// The glob of the forge's own files, which the ripple.yml init writes ignores: adding CI selects no test.
  public var ignoreGlob: String {
    switch self {
    case .github: ".github/**"
    case .gitlab: ".gitlab-ci.yml"
    case .buildkite: ".buildkite/**"
    }
  }
}

/// What `ripple init` reads, gathered by `Workspace.planInit` (the I/O edge): paths relative to the root.
public struct InitInput: Sendable {
  /// The working tree's files git does not ignore.
  public var files: [String]
  /// Each manifest's text (`Package.swift`, `Package@swift-*.swift` outside `.build`).
  public var manifests: [String: String]
  /// Where ripple.yml is, or goes.
  public var configPath: String
  /// The current text of every file init may write (ripple.yml, .gitignore, each forge's workflow); absent:
  /// no such file.
  public var existing: [String: String]
  /// Folders bootstrap writes (asset and generate destinations, Ripple's `.build`) that git does not ignore.
  public var unignoredFolders: [String]
  public var ci: CIForge?
  /// The URL of the repository's `origin` remote; nil when it has none.
  public var remote: String?

  public init(
    files: [String], manifests: [String: String], configPath: String = "ripple.yml", existing: [String: String] = [:],
    unignoredFolders: [String] = [], ci: CIForge? = nil, remote: String? = nil
  ) {
    self.remote = remote
    self.files = files
    self.manifests = manifests
    self.configPath = configPath
    self.existing = existing
    self.unignoredFolders = unignoredFolders
    self.ci = ci
  }
}

/// What init found in the tree.
public struct InitFindings: Sendable, Equatable {
  public var packages: [String] = []
  public var xcodeProjects: [String] = []
  public var xcodeWorkspaces: [String] = []
  /// Manifests that read the environment, each with the variables init can name (empty: it cannot).
  public var environmentManifests: [EnvironmentManifest] = []
  public var ignoreGlobs: [String] = []

  public struct EnvironmentManifest: Sendable, Equatable {
    public var path: String
    public var variables: [String]
  }
}

/// One file init would write: its current text (nil: new) and the new one.
public struct InitFileChange: Sendable, Equatable {
  public var path: String
  public var old: String?
  public var new: String
}

/// Everything init decided, before anything is written.
public struct InitPlan: Sendable {
  public var findings: InitFindings
  /// Files whose text changes, in the order they are reported.
  public var changes: [InitFileChange]
  /// Files init would write that already hold exactly that.
  public var unchanged: [String]
  /// Existing files init would replace (not append to): written only with --force.
  public var conflicts: [String]
  /// What the user still has to do (push to GitHub; add to ripple.yml what init could not).
  public var notes: [String]
}

/// `ripple init`'s pure core: the tree as values in, the files to write out (docs/DESIGN.md, "ripple init").
public enum InitPlanner {
  /// Whether `path` is a manifest SwiftPM may read, outside any `.build` folder.
  public static func isManifest(_ path: String) -> Bool {
    let parts = path.split(separator: "/")
    guard let name = parts.last, !parts.contains(".build") else { return false }
    return name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
  }

  public static func plan(_ input: InitInput) throws -> InitPlan {
    // Files init writes itself are not evidence about the repository: a second run must see what the first saw.
    var own: Set<String> = [input.configPath, ".gitignore"]
    for forge in CIForge.allCases where input.existing[forge.destination] == forge.workflow {
      own.insert(forge.destination)
    }
    let files = input.files.filter { !own.contains($0) }
    var findings = find(files: files, manifests: input.manifests)
    // The workflow init writes would otherwise be an unowned file, and adding CI would select every test.
    if let ci = input.ci, !findings.ignoreGlobs.contains(ci.ignoreGlob) { findings.ignoreGlobs.append(ci.ignoreGlob) }

    var proposals: [(path: String, text: String, appends: Bool)] = []
    var notes: [String] = []
    let config: String
    if let existing = input.existing[input.configPath] {
      let merged = mergedConfigText(existing, path: input.configPath, adding: findings)
      config = merged.text
      notes += merged.notes
    } else {
      config = configText(findings)
    }
    do {
      _ = try ConfigLoader.parse(config, path: input.configPath)
    } catch {
      throw InternalError("the ripple.yml ripple init proposes does not load: \(error)")
    }
    proposals.append((input.configPath, config, false))
    if let gitignore = gitignoreText(input.existing[".gitignore"], adding: input.unignoredFolders) {
      proposals.append((".gitignore", gitignore, true))
    }
    if let ci = input.ci {
      proposals.append((ci.destination, ci.workflow, false))
      if ci == .github {
        if let remote = input.remote {
          if !remote.contains("github.com") {
            notes.append(
              "\(ci.destination) runs on GitHub Actions, and origin is \(remote): it runs once the repository is on "
                + "GitHub (for GitLab or Buildkite, use --ci gitlab or --ci buildkite)")
          }
        } else {
          notes.append(
            "this repository has no remote: \(ci.destination) runs once it is pushed to GitHub "
              + "(it uses \(BuildInfo.actionReference), which needs nothing of this repository's address)")
        }
      }
    }

    var plan = InitPlan(findings: findings, changes: [], unchanged: [], conflicts: [], notes: notes)
    for proposal in proposals {
      let old = input.existing[proposal.path]
      if old == proposal.text {
        plan.unchanged.append(proposal.path)
        continue
      }
      if old != nil && !proposal.appends { plan.conflicts.append(proposal.path) }
      plan.changes.append(InitFileChange(path: proposal.path, old: old, new: proposal.text))
    }
    return plan
  }

  /// Packages, Xcode containers, environment-reading manifests and the ignore globs that fit `files`.
  static func find(files: [String], manifests: [String: String]) -> InitFindings {
    var findings = InitFindings()
    findings.packages = Set(files.filter { $0.hasSuffix("Package.swift") && isManifest($0) }.map(RepoPath.parent))
      .sorted()
    let containers = XcodeDiscovery.containers(in: files, excludePackages: [])
    findings.xcodeProjects = containers.projects
    findings.xcodeWorkspaces = containers.workspaces
    for path in manifests.keys.sorted() where files.contains(path) {
      if let variables = environmentVariables(in: manifests[path]!) {
        findings.environmentManifests.append(.init(path: path, variables: variables))
      }
    }
    let candidates: [(glob: String, present: (String) -> Bool)] = [
      ("**/*.md", { $0.hasSuffix(".md") }),
      ("docs/**", { $0.hasPrefix("docs/") }),
      (".github/**", { $0.hasPrefix(".github/") }),
      (".gitlab-ci.yml", { $0 == ".gitlab-ci.yml" }),
      (".buildkite/**", { $0.hasPrefix(".buildkite/") }),
      // Test reports kept in the repository (`--junit reports/junit.xml`): what a run writes selects nothing.
      ("reports/**", { $0.hasPrefix("reports/") }),
    ]
    findings.ignoreGlobs = candidates.filter { candidate in files.contains(where: candidate.present) }.map(\.glob)
    return findings
  }

  /// The variables a manifest reads by name through `Context.environment` or
  /// `ProcessInfo.processInfo.environment` (`["NAME"]`, `.keys.contains("NAME")`), sorted; nil when it reads
  /// neither. Empty: it reads the environment in a way text cannot name (a variable holding the dictionary).
  static func environmentVariables(in manifest: String) -> [String]? {
    let sources = ["Context.environment", "ProcessInfo.processInfo.environment"]
    guard sources.contains(where: { manifest.contains($0) }) else { return nil }
    let pattern =
      #"(?:Context\.environment|ProcessInfo\.processInfo\.environment)\s*(?:\[\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\]|\.keys\.contains\(\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\))"#
    let expression = try! NSRegularExpression(pattern: pattern)
    let range = NSRange(manifest.startIndex..., in: manifest)
    var names: Set<String> = []
    for match in expression.matches(in: manifest, range: range) {
      for group in 1...2 {
        if let found = Range(match.range(at: group), in: manifest) { names.insert(String(manifest[found])) }
      }
    }
    return names.sorted()
  }

  /// The proposed ripple.yml for a repository that has none.
  static func configText(_ findings: InitFindings) -> String {
    var lines = ["# ripple.yml, proposed by `ripple init`. Reference: docs/DESIGN.md, section 4.", "#"]
    let packages = findings.packages.map { $0 == "." ? "(root)" : $0 }
    lines.append(
      "# Packages (\(packages.count)): " + (packages.isEmpty ? "none" : packages.joined(separator: ", ")) + ".")
    let xcode = findings.xcodeWorkspaces + findings.xcodeProjects
    if !xcode.isEmpty { lines.append("# Xcode (in the graph too, rule 12): " + xcode.joined(separator: ", ") + ".") }
    lines += ["", "selection:"]
    lines.append("  # Changed files that select no test: the documentation and CI files of this repository.")
    lines.append(findings.ignoreGlobs.isEmpty ? "  ignore: []" : "  ignore:")
    lines += findings.ignoreGlobs.map { "    - \"\($0)\"" }
    let manifests = findings.environmentManifests
    if !manifests.isEmpty {
      lines.append("  # Manifests that read the environment: each is evaluated once per entry, the graphs unioned.")
      for manifest in manifests {
        lines.append(
          manifest.variables.isEmpty
            ? "  # \(manifest.path) reads variables init cannot name: add an entry for each."
            : "  # \(manifest.path) reads \(manifest.variables.joined(separator: ", ")).")
      }
      lines.append("  # The values are guesses: use the values your CI sets.")
      lines += ["  manifestEnvironments:", "    - {}"]
      let variables = Set(manifests.flatMap(\.variables)).sorted()
      lines += variables.map { "    - {\($0): \"1\"}" }
    }
    do {
      let environment = manifests.flatMap(\.variables).first.map { ", environment: {\($0): \"1\"}" } ?? ""
      lines += [
        "",
        "# Where tests run (uncomment and adapt): each run builds and tests with its environment, on its platforms.",
        "# test:", "#   runs:", "#     - {name: linux\(environment), platforms: [linux]}",
        "#     - {name: macos, platforms: [macos]}",
      ]
      if let container = xcode.first {
        let key = container.hasSuffix(".xcworkspace") ? "workspace" : "project"
        lines += [
          "#     - name: ios", "#       runner: xcodebuild", "#       \(key): \(container)",
          "#       scheme: <scheme>", "#       destination: \"platform=iOS Simulator,name=iPhone 16\"",
        ]
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// An existing ripple.yml (`--force`) with what init proposes and it lacks added, by text: every line of it,
  /// its comments, anchors and aliases stay as they are. What init adds: the `selection.ignore` globs it
  /// found that the file does not ignore yet (items appended to a block or flow list, or an `ignore:` key, or a
  /// `selection:` section). What it cannot add safely (an ignore list that is an alias, a `selection:` written
  /// in flow style, environment variables the manifests read) is a note, and the file stays as it was there.
  static func mergedConfigText(_ existing: String, path: String, adding findings: InitFindings) -> (
    text: String, notes: [String]
  ) {
    guard let current = try? ConfigLoader.parse(existing, path: path) else {
      return (existing, ["\(path) does not load: init added nothing to it (`ripple check-config` says why)"])
    }
    var notes: [String] = []
    if current.selection.manifestEnvironments == [[:]] {
      for manifest in findings.environmentManifests where !manifest.variables.isEmpty {
        notes.append(
          "\(manifest.path) reads \(manifest.variables.joined(separator: ", ")): add an entry for each to "
            + "selection.manifestEnvironments in \(path)")
      }
    }
    let present = Set(current.selection.ignore.map(\.pattern))
    let missing = findings.ignoreGlobs.filter { !present.contains($0) }
    guard !missing.isEmpty else { return (existing, notes) }
    let quoted = missing.map { "\"\($0)\"" }
    let cannot = "add \(quoted.joined(separator: ", ")) to selection.ignore in \(path) yourself"

    var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let endsWithNewline = existing.hasSuffix("\n")
    if endsWithNewline { lines.removeLast() }
    func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }
    func isContent(_ line: String) -> Bool {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return !trimmed.isEmpty && !trimmed.hasPrefix("#")
    }
    /// The line's value after `key:`, its comment dropped ("" for a block).
    func value(_ line: String, after key: String) -> String {
      var rest = line.drop { $0 == " " }.dropFirst(key.count + 1)
      if let hash = rest.range(of: " #") { rest = rest[..<hash.lowerBound] }
      if rest.hasPrefix("#") { rest = "" }
      return rest.trimmingCharacters(in: .whitespaces)
    }
    let comment = "Changed files that select no test: the documentation and CI files of this repository."

    if let start = lines.firstIndex(where: { $0.hasPrefix("selection:") }) {
      guard value(lines[start], after: "selection").isEmpty else {
        return (existing, notes + ["selection: in \(path) is not a block mapping: \(cannot)"])
      }
      var end = start + 1
      while end < lines.count, !(isContent(lines[end]) && indentation(lines[end]) == 0) { end += 1 }
      let children = (start + 1..<end).filter { isContent(lines[$0]) }
      let indent = children.first.map { indentation(lines[$0]) } ?? 2
      let pad = String(repeating: " ", count: indent)
      if let key = children.first(where: {
        indentation(lines[$0]) == indent && lines[$0].dropFirst(indent).hasPrefix("ignore:")
      }) {
        let flow = value(lines[key], after: "ignore")
        let anchorOnly = flow.hasPrefix("&") && !flow.contains(" ")
        if flow.isEmpty || anchorOnly {
          // A block list: items after its last item, at its items' indentation.
          var last = key
          var itemIndent: Int?
          var index = key + 1
          while index < end {
            let line = lines[index]
            if isContent(line) {
              let lineIndent = indentation(line)
              let isItem = line.dropFirst(lineIndent).hasPrefix("-")
              guard lineIndent > indent || (lineIndent == indent && isItem) else { break }
              if isItem && itemIndent == nil { itemIndent = lineIndent }
              last = index
            }
            index += 1
          }
          let itemPad = String(repeating: " ", count: itemIndent ?? indent + 2)
          lines.insert(contentsOf: quoted.map { itemPad + "- " + $0 }, at: last + 1)
        } else if flow.hasSuffix("]"), let open = flow.firstIndex(of: "["), !flow[open...].dropFirst().contains("[") {
          // A flow list on one line: the globs before its `]`.
          let inside = flow[flow.index(after: open)..<flow.index(before: flow.endIndex)]
          let items = inside.trimmingCharacters(in: .whitespaces)
          let joined = (items.isEmpty ? [] : [items]) + quoted
          let newValue = flow[..<open] + "[" + joined.joined(separator: ", ") + "]"
          guard let range = lines[key].range(of: flow) else { return (existing, notes + [cannot]) }
          lines[key].replaceSubrange(range, with: newValue)
        } else {
          return (existing, notes + ["selection.ignore in \(path) is \(flow): \(cannot)"])
        }
      } else {
        lines.insert(
          contentsOf: ["\(pad)# \(comment)", "\(pad)ignore:"] + quoted.map { "\(pad)  - \($0)" }, at: start + 1)
      }
    } else {
      if lines.last.map(isContent) == true || lines.last?.hasPrefix("#") == true { lines.append("") }
      lines += ["selection:", "  # \(comment)", "  ignore:"] + quoted.map { "    - \($0)" }
    }
    let text = lines.joined(separator: "\n") + (endsWithNewline || !lines.isEmpty ? "\n" : "")
    // The edit must load and ignore every glob; otherwise the file stays as it was.
    guard let merged = try? ConfigLoader.parse(text, path: path),
      Set(merged.selection.ignore.map(\.pattern)).isSuperset(of: missing)
    else { return (existing, notes + [cannot]) }
    return (text, notes)
  }

  /// `.gitignore` with a line for each folder git does not ignore yet, appended; nil when there is none.
  static func gitignoreText(_ existing: String?, adding folders: [String]) -> String? {
    guard !folders.isEmpty else { return nil }
    var text = existing ?? ""
    if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
    if !text.isEmpty { text += "\n" }
    text += "# Written by ripple bootstrap (ripple init): ignored, so installing them changes nothing git sees.\n"
    for folder in folders.sorted() { text += "/\(folder)/\n" }
    return text
  }
}
