import Foundation
import TestSupport
import Testing

/// Keys against real history (issue 47): across every commit of a real package's history, a test target's key
/// stays the same only when `ripple affected` does not select it (a key that stays while its target is
/// selected is a false hit waiting to happen). The suite checks one real release-to-release history from the
/// package mirror (Yams 5.0.1 → 6.2.2: a new tools version, new targets, dependency changes); `make
/// key-proof` checks every multi-version package of the mirror and this repository's own last 50 commits. At
/// each commit the keys are also computed by a scan of every file (`RIPPLE_KEYS_BY_SCAN=1`): they must be the
/// same (issue 50).
@Suite(.serialized, .exclusive(.cooperativeThread)) struct KeyHistoryProofTests {
  static let mirror = "/opt/swift-packages"

  /// A repository whose commits are the given versions of a mirror package, file for file.
  static func releaseHistory(_ package: String, _ versions: [String]) throws -> (TestRepository, [String]) {
    // The checkout's folder carries the package's name, as a clone's would (a nested package may name it).
    let repo = try TestRepository(folderName: String(package.split(separator: "/").last!))
    var commits: [String] = []
    for version in versions {
      // Each version's whole tree replaces the last (files it dropped are gone).
      for name in try FileManager.default.contentsOfDirectory(atPath: repo.root) where name != ".git" {
        try FileManager.default.removeItem(atPath: repo.root + "/" + name)
      }
      let archive = try Command.run(
        ["sh", "-c", "git -C \"$0\" archive \"$1\" | tar -x -C \"$2\"", "\(mirror)/\(package).git", version, repo.root])
      try #require(archive.status == 0, "\(archive.standardError)")
      try repo.write(".gitignore", ".build/\n")
      commits.append(try repo.commitAll(version))
    }
    return (repo, commits)
  }

  struct Outcome {
    var pairs = 0
    /// Test targets whose key stayed the same across a commit (each checked against the selection).
    var unchanged = 0
    var changed = 0
    var violations: [String] = []
  }

  /// Checks the invariant over each consecutive pair of `commits` in `root` (checked out in turn).
  static func check(root: String, commits: [String], environment: [String: String]) throws -> Outcome {
    var outcome = Outcome()
    var previous: [String: String]?
    for (index, commit) in commits.enumerated() {
      _ = try GitFixture.git(["checkout", "-q", "--detach", commit], in: root)
      let keys = try Self.keys(root: root, environment: environment)
      #expect(try Self.keys(root: root, environment: environment) == keys, "one state, one key at \(commit)")
      // No false hit from the faster path: the keys of a scan of every file are the same (issue 50).
      var scanning = environment
      scanning["RIPPLE_KEYS_BY_SCAN"] = "1"
      let scanned = try Self.keys(root: root, environment: scanning)
      for (target, key) in keys where scanned[target] != key {
        outcome.violations.append(
          "\(target): at \(commit.prefix(10)) the walk keys \(key), a scan \(scanned[target] ?? "-")")
      }
      defer { previous = keys }
      guard let previous else { continue }
      outcome.pairs += 1
      let affected = try RippleBinary.run(
        ["affected", "--base", commits[index - 1], "--head", commit, "--format", "json"], in: root,
        environment: environment)
      try #require(affected.status == 0, "\(affected.standardError)")
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(affected.standardOutput.utf8)) as? [String: Any])
      let selected = Set(
        (report["testTargets"] as? [[String: Any]] ?? []).map { "\($0["package"] ?? "."):\($0["name"] ?? "")" })
      for (target, key) in keys {
        guard let before = previous[target] else { continue }
        if before == key {
          outcome.unchanged += 1
          if selected.contains(target) || report["runAll"] as? Bool == true {
            outcome.violations.append("\(target): same key across \(commit.prefix(10)) but selected")
          }
        } else {
          outcome.changed += 1
        }
      }
    }
    return outcome
  }

  /// Every test target's key at the checked-out commit (`ripple test --all --dry-run`).
  static func keys(root: String, environment: [String: String]) throws -> [String: String] {
    let plan = try RippleBinary.test(["--all", "--dry-run", "--format", "json"], in: root, environment: environment)
    try #require(plan.status == 0, "\(plan.standardError)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any])
    var out: [String: String] = [:]
    for entry in json["keys"] as? [[String: Any]] ?? [] {
      out["\(entry["package"] ?? "."):\(entry["target"] ?? "")"] = entry["key"] as? String
    }
    return out
  }

  static func environment(_ root: String) -> [String: String] {
    ["RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_CACHE_DIR": root + "/.build/ripple-cache", "RIPPLE_BRANCH": "proof"]
  }

  /// swift-nio's release 2.101.2 → 2.101.3 (every key changes), then an edit of one module's source on top
  /// (most keys stay; only that module's tests are selected).
  @Test(.enabled(if: FileManager.default.fileExists(atPath: mirror + "/apple/swift-nio.git")))
  func aRealReleaseHistoryKeepsAKeyOnlyWhereNothingIsSelected() throws {
    var (repo, commits) = try Self.releaseHistory("apple/swift-nio", ["2.101.2", "2.101.3"])
    try repo.append("Sources/NIOWebSocket/WebSocketFrame.swift", "// an edit of one module\n")
    commits.append(try repo.commitAll("edit NIOWebSocket"))
    let outcome = try Self.check(root: repo.root, commits: commits, environment: Self.environment(repo.root))
    #expect(outcome.violations.isEmpty, "\(outcome.violations)")
    #expect(outcome.pairs == 2 && outcome.changed > 0 && outcome.unchanged > 0, "both directions: \(outcome)")
    print("key-proof swift-nio: \(outcome.changed) keys changed, \(outcome.unchanged) kept, 0 violations")
  }

  /// `make key-proof`: every package of the mirror with more than one version, and this repository's last 50
  /// commits (where the clone holds them).
  @Test(.enabled(if: ProcessInfo.processInfo.environment["RIPPLE_KEY_PROOF"] == "1"))
  func everyMultiVersionMirrorPackageAndThisRepositorysHistory() throws {
    var lines: [String] = []
    var total = Outcome()
    func add(_ name: String, _ outcome: Outcome) {
      lines.append(
        "\(name): \(outcome.pairs) commits, \(outcome.changed) keys changed, \(outcome.unchanged) kept, "
          + "\(outcome.violations.count) violations")
      total.pairs += outcome.pairs
      total.changed += outcome.changed
      total.unchanged += outcome.unchanged
      total.violations += outcome.violations
    }
    var seen: Set<String> = []
    for owner in (try? FileManager.default.contentsOfDirectory(atPath: Self.mirror)) ?? [] {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: Self.mirror + "/" + owner)) ?? [] {
        // The mirror answers some names twice (a link per spelling, an old owner's name).
        let real = URL(fileURLWithPath: Self.mirror + "/" + owner + "/" + name).resolvingSymlinksInPath().path
        guard seen.insert(real).inserted else { continue }
        let package = owner + "/" + name.replacingOccurrences(of: ".git", with: "")
        let tags = try GitFixture.git(["tag", "--sort=v:refname"], in: Self.mirror + "/" + owner + "/" + name)
          .split(separator: "\n").map(String.init)
        guard tags.count > 1 else { continue }
        let (repo, commits) = try Self.releaseHistory(package, tags)
        add(package, try Self.check(root: repo.root, commits: commits, environment: Self.environment(repo.root)))
      }
    }
    // This repository: a real Swift package with dependency additions and bumps in its history.
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    let history = (try? GitFixture.git(["rev-list", "--first-parent", "--max-count=51", "HEAD"], in: source)) ?? ""
    let commits = Array(history.split(separator: "\n").map(String.init).reversed())
    if commits.count > 1 {
      let clone = try TemporaryDirectory()
      _ = try GitFixture.git(["clone", "-q", "--no-checkout", source, clone.child("ripple")], in: clone.path)
      add(
        "this repository",
        try Self.check(
          root: clone.child("ripple"), commits: commits, environment: Self.environment(clone.child("ripple"))))
    }
    print(lines.joined(separator: "\n"))
    print(
      "key-proof: \(total.pairs) commits, \(total.changed) keys changed, \(total.unchanged) kept, "
        + "\(total.violations.count) violations")
    #expect(total.violations.isEmpty, "\(total.violations)")
    #expect(total.pairs >= 50)
  }
}
