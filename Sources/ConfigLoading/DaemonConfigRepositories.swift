import Foundation
import RippleConfig
import RippleCore
import Yams

/// Validates `repositories:` of `rippled.yml` into `[RepositorySettings]`.
enum DaemonRepositoriesParser {
  static let commonKeys = [
    "name", "remote", "path", "runTimeout", "bootstrap", "testArguments", "coverage", "granularity", "retryFailed",
    "status", "notify",
    "assetFolders",
  ]
  /// Keys that only make sense when branches are fetched from a remote.
  static let remoteKeys = ["branches", "fetchInterval", "fetchTimeout", "canary", "protectedBranches"]
  /// Keys that only make sense when a working tree on this machine is watched.
  static let pathKeys = ["settle", "watch", "pollInterval"]
  static let keys = commonKeys + remoteKeys + pathKeys

  static func parse(_ value: YAMLValue) throws -> [RepositorySettings] {
    var firstLine: [String: Int] = [:]
    return try value.listElements().map { element in
      let repository = try parseRepository(element)
      let name = repository.name
      if let line = firstLine[name] {
        throw element.entry("name")!.error(
          "duplicate repository name `\(name)`", hint: "names must be unique; the first one is at line \(line)")
      }
      firstLine[name] = element.node.mark?.line ?? 0
      return repository
    }
  }

  private static func parseRepository(_ value: YAMLValue) throws -> RepositorySettings {
    let entries = try value.entries(allowed: keys, required: ["name"])
    let name = try repositoryName(entries["name"]!)
    let source: RepositorySettings.Source
    switch (entries["remote"], entries["path"]) {
    case (let remote?, nil):
      source = .remote(url: try remoteLocation(remote))
      for key in pathKeys where entries[key] != nil {
        throw value.keyError(
          key, "`\(key)` applies to a working tree (`path:`), and repository `\(name)` is fetched from a remote",
          hint: "remote repositories take " + remoteKeys.map { "`\($0)`" }.joined(separator: ", "))
      }
    case (nil, let path?):
      source = .workingTree(path: try path.path())
      for key in remoteKeys where entries[key] != nil {
        throw value.keyError(
          key, "`\(key)` applies to a remote (`remote:`), and repository `\(name)` watches a working tree",
          hint: "working trees take " + pathKeys.map { "`\($0)`" }.joined(separator: ", "))
      }
    case (_?, _?):
      throw value.keyError(
        "path", "repository `\(name)` has both `remote` and `path`",
        hint: "use `remote:` to fetch branches, or `path:` to watch a working tree, not both")
    case (nil, nil):
      throw value.error(
        "repository `\(name)` has neither `remote` nor `path`",
        hint: "add `remote:` (a URL or bare repository to fetch) or `path:` (a working tree to watch)")
    }

    var repository = RepositorySettings(name: name, source: source)
    if let branches = entries["branches"] { repository.branches = try branchRules(branches) }
    if let value = entries["fetchInterval"] { repository.fetchInterval = try value.duration() }
    if let value = entries["fetchTimeout"] { repository.fetchTimeout = try value.duration() }
    if let value = entries["runTimeout"] { repository.runTimeout = try value.duration() }
    if let value = entries["settle"] { repository.settle = try value.duration() }
    if let value = entries["watch"] { repository.watch = try watchMode(value) }
    if let value = entries["pollInterval"] { repository.pollInterval = try value.duration() }
    if let value = entries["bootstrap"] { repository.bootstrap = try value.boolean() }
    if let value = entries["testArguments"] { repository.testArguments = try testArguments(value) }
    if let value = entries["coverage"] { repository.coverage = try value.boolean() }
    if let value = entries["granularity"] { repository.granularity = try TestParser.granularity(value) }
    if let value = entries["retryFailed"] { repository.retryFailed = Int(try value.integer(in: 0...100)) }
    if let value = entries["status"] { repository.status = try CommitStatusParser.parse(value) }
    if let value = entries["canary"] {
      repository.canary = try CanaryNotifyParser.canary(value, branches: repository.branches)
    }
    if let value = entries["notify"] { repository.notify = try CanaryNotifyParser.notify(value) }
    if let value = entries["assetFolders"] { repository.assetFolders = try assetFolders(value) }
    if let value = entries["protectedBranches"] { repository.protectedBranches = try protectedBranches(value) }
    return repository
  }

  /// `assetFolders: [/srv/assets]`: existing folders (relative paths start at rippled.yml's folder).
  static func assetFolders(_ value: YAMLValue) throws -> [String] {
    try value.listElements().map { element in
      let path = try element.path()
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw element.error(
          "`\(path)` is not a folder", hint: "list existing folders that hold asset files, e.g. /srv/assets")
      }
      return path
    }
  }

  /// `protectedBranches: [main, "release/*"]`: names or globs, at least one.
  private static func protectedBranches(_ value: YAMLValue) throws -> [String] {
    let patterns = try value.stringList()
    guard !patterns.isEmpty, !patterns.contains(where: \.isEmpty) else {
      throw value.error(
        "protectedBranches needs at least one non-empty branch name or glob",
        hint: "list the branches whose runs may write the shared manifest cache, e.g. [main, \"release/*\"]")
    }
    return patterns
  }

  /// Names are used in paths, URLs and metrics labels.
  static func repositoryName(_ value: YAMLValue) throws -> String {
    let name = try value.scalarText()
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    guard !name.isEmpty, name.allSatisfy(allowed.contains), name != ".", name != "..", name.count <= 100 else {
      throw value.error(
        "`\(name)` is not a valid repository name", hint: "use letters, digits, `.`, `_` and `-` (at most 100)")
    }
    return name
  }

  /// A URL or scp-like address stays as written; a path to a bare repository is made absolute.
  private static func remoteLocation(_ value: YAMLValue) throws -> String {
    let remote = try value.string()
    guard !remote.isEmpty else {
      throw value.error("the remote is empty", hint: "write a URL or the path of a bare repository")
    }
    return DaemonPath.isURL(remote) ? remote : try value.path()
  }

  /// `[main, "release/*", {pattern: "feature/*", cancelRunning: true}]`; a single string is one rule.
  private static func branchRules(_ value: YAMLValue) throws -> [BranchRule] {
    let elements: [YAMLValue]
    if case .scalar = value.node, !value.isNull {
      elements = [value]
    } else {
      elements = try value.listElements()
    }
    guard !elements.isEmpty else {
      throw value.error(
        "no branch would be followed", hint: "list at least one branch name or glob, e.g. [main]")
    }
    var seen: Set<String> = []
    return try elements.map { element in
      var rule: BranchRule
      let patternValue: YAMLValue
      if case .mapping = element.node {
        let entries = try element.entries(allowed: ["pattern", "cancelRunning"], required: ["pattern"])
        patternValue = entries["pattern"]!
        rule = BranchRule(pattern: try branchPattern(patternValue))
        if let cancel = entries["cancelRunning"] { rule.cancelRunning = try cancel.boolean() }
      } else {
        patternValue = element
        rule = BranchRule(pattern: try branchPattern(element))
      }
      guard seen.insert(rule.pattern).inserted else {
        throw patternValue.error("branch pattern `\(rule.pattern)` is listed twice")
      }
      return rule
    }
  }

  private static func branchPattern(_ value: YAMLValue) throws -> String {
    guard case .scalar = value.node, !value.isNull else {
      throw value.error(
        "expected a branch name or glob, found \(value.typeDescription)",
        hint: "write `main`, `\"release/*\"` or {pattern: \"feature/*\", cancelRunning: true}")
    }
    let pattern = try value.scalarText()
    if let problem = GlobSyntax.problem(in: pattern) {
      throw value.error("invalid branch pattern: \(problem)", hint: "write `[[]` to match a literal `[`")
    }
    if pattern.hasPrefix("refs/") || pattern.hasPrefix("origin/") {
      throw value.error(
        "`\(pattern)` names a ref, not a branch",
        hint: "write the branch name as the remote has it, e.g. `main` or `feature/*`")
    }
    if pattern.contains(where: { $0 == " " || $0 == "~" || $0 == "^" || $0 == ":" || $0 == "\\" }) {
      throw value.error(
        "`\(pattern)` cannot be a branch name", hint: "branch names have no spaces, `~`, `^`, `:` or `\\`")
    }
    return pattern
  }

  private static func watchMode(_ value: YAMLValue) throws -> RepositorySettings.WatchMode {
    let choices = "expected one of: " + RepositorySettings.WatchMode.allCases.map(\.rawValue).joined(separator: ", ")
    guard case .scalar(let scalar) = value.node, !value.isNull,
      let mode = RepositorySettings.WatchMode(rawValue: scalar.string)
    else {
      throw value.error("\(value.typeDescription) is not a watch mode", hint: choices)
    }
    #if !os(Linux)
      if mode == .inotify {
        throw value.error("inotify exists on Linux only", hint: "use `auto` or `poll`")
      }
    #endif
    return mode
  }

  /// A list of arguments; numbers and booleans keep their spelling (`["-j", 4]`).
  static func testArguments(_ value: YAMLValue) throws -> [String] {
    guard case .sequence = value.node else {
      throw value.error(
        "expected a list of arguments, found \(value.typeDescription)", hint: "write a list like [\"-c\", \"release\"]")
    }
    return try value.listElements().map { try $0.scalarText() }
  }
}

extension YAMLValue {
  /// The value of `key` in this mapping, if present.
  func entry(_ key: String) -> YAMLValue? {
    guard case .mapping(let mapping) = node else { return nil }
    for (keyNode, valueNode) in mapping where keyNode.string == key {
      return YAMLValue(node: valueNode, file: file, keyPath: keyPath.isEmpty ? key : "\(keyPath).\(key)")
    }
    return nil
  }

  /// An error at `key` itself (its line and column, rather than its value's), with that key's path.
  func keyError(_ key: String, _ message: String, hint: String? = nil) -> ConfigError {
    let path = keyPath.isEmpty ? key : "\(keyPath).\(key)"
    if case .mapping(let mapping) = node, let keyNode = mapping.keys.first(where: { $0.string == key }) {
      return YAMLValue(node: keyNode, file: file, keyPath: path).error(message, hint: hint)
    }
    return ConfigError(
      file: file, line: node.mark?.line, column: node.mark?.column, keyPath: path, message: message, hint: hint)
  }
}
