import Foundation
import TestSupport
import Testing

/// What the coverage differential proofs share (CoverageTests, CoverageProofTests): the environment that turns
/// pass records on in a store of the fixture's own, the JSON report's per-target sources, and the step that
/// commits a shape and compares a selective run's merged LCOV with a full run's.
enum CoverageReports {
  static func environment(_ repo: TestRepository) -> [String: String] {
    [
      "RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_CACHE_DIR": RippleBinary.privateCache(repo.root + "/.build/ripple-cache"),
      "RIPPLE_BRANCH": "feature/x",
    ]
  }

  static func json(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
  }

  /// Each target's source in the report: `fresh`, `recorded` or `notMeasured`.
  static func sources(_ report: [String: Any]) -> [String: String] {
    let targets = (report["coverage"] as? [String: Any])?["targets"] as? [[String: Any]] ?? []
    var out: [String: String] = [:]
    for target in targets { out[target["unit"] as? String ?? "?"] = target["source"] as? String }
    return out
  }

  /// Why each target not measured was not.
  static func reasons(_ report: [String: Any]) -> [String] {
    let targets = (report["coverage"] as? [String: Any])?["targets"] as? [[String: Any]] ?? []
    return targets.filter { $0["source"] as? String == "notMeasured" }.map {
      "\($0["unit"] ?? "?"): \($0["detail"] ?? "?")"
    } + (report["warnings"] as? [String] ?? [])
  }

  /// A full `--coverage` run of every target, recording nothing: the reference.
  static func fullReport(_ repo: TestRepository, _ name: String) throws -> String {
    let lcov = repo.root + "/.build/\(name)-full.lcov"
    let full = try RippleBinary.test(
      ["--all", "--coverage", "--no-cache-results", "--jobs", "3", "--coverage-lcov", lcov], in: repo.root,
      environment: environment(repo))
    #expect(full.status == 0, "\(full.standardOutput)\(full.standardError)")
    return try String(contentsOfFile: lcov, encoding: .utf8)
  }

  /// Commits the work tree as `shape`, runs `ripple test --coverage --base HEAD~1` (fresh coverage of what it
  /// selects, recorded coverage of the rest, and records of its own) and a full run: the selection must be `ran`,
  /// every one of `targets` test targets measured, and the two LCOV texts identical.
  static func commitAndCompare(_ repo: TestRepository, shape: String, index: Int, ran: Set<String>, targets: Int)
    throws
  {
    // A commit of the sources only (GitFixture.commitAll adds ignored files too: the builds' folders).
    try repo.git("add", "-A")
    try repo.git("commit", "-q", "-m", shape)
    let lcov = repo.root + "/.build/\(index)-selective.lcov"
    let report = repo.root + "/.build/\(index)-selective.json"
    let selective = try RippleBinary.test(
      ["--coverage", "--base", "HEAD~1", "--jobs", "3", "--coverage-lcov", lcov, "--report-json", report],
      in: repo.root, environment: environment(repo))
    #expect(selective.status == 0, "\(shape): \(selective.standardOutput)\(selective.standardError)")
    let document = try json(report)
    let sources = sources(document)
    #expect(Set(sources.filter { $0.value == "fresh" }.keys) == ran, "\(shape): \(sources)")
    #expect(sources.count == targets && !sources.values.contains("notMeasured"), "\(shape): \(reasons(document))")
    let merged = try String(contentsOfFile: lcov, encoding: .utf8)
    let full = try fullReport(repo, "\(index)")
    #expect(merged == full, "\(shape): the merged report differs from the full run's")
    #expect(!full.isEmpty)
  }
}
