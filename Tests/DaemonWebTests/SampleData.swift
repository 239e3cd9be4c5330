import Foundation
import RunModel

@testable import DaemonWeb

/// Realistic values for the pages: a few repositories, branches and runs, and an isowords-like affected graph.
enum SampleData {
  static let now = Date(timeIntervalSince1970: 1_776_600_000)  // 2026-04-19

  static let hostile = "<script>alert(1)</script>"
  static let quoteReason = "failed: \"a & b\" isn't <ok>"

  static func minutesAgo(_ minutes: Double) -> Date { now.addingTimeInterval(-minutes * 60) }

  static func sha(_ seed: Int) -> String {
    var value = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15
    var out = ""
    while out.count < 40 {
      value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      out += String(value >> 60, radix: 16)
    }
    return out
  }

  static var status: DaemonStatus {
    DaemonStatus(
      version: "0.4.0", startedAt: minutesAgo(60 * 26), ready: true, healthy: false,
      problems: ["Log directory /var/log/rippled is not writable: Permission denied"],
      activity: "Testing isowords main at \(String(sha(3).prefix(10))) (7 of 25 test targets)", queueLength: 2,
      running: [103],
      repositories: [
        RepositoryStatus(
          name: "isowords", source: "remote https://github.com/pointfreeco/isowords.git", lastCheck: minutesAgo(0.7),
          lastError: nil, heads: ["main": sha(3), "game-center": sha(21), "stale-branch": sha(40)]),
        RepositoryStatus(
          name: "ripple", source: "worktree /home/ci/ripple", lastCheck: minutesAgo(0.2), lastError: nil,
          heads: ["worktree": "worktree"]),
        RepositoryStatus(
          name: "tools", source: "remote git@example.com:tools.git", lastCheck: minutesAgo(12),
          lastError: "fetch failed: Could not resolve host: example.com", heads: [hostile: sha(90)]),
      ])
  }

  static var runs: [RunRecord] {
    var runs: [RunRecord] = []
    func add(
      _ id: Int64, _ repository: String, _ branch: String, _ trigger: RunTrigger, _ state: RunState,
      queued: Double, took: Double? = nil, selected: Int? = nil, total: Int? = nil, failed: Int? = nil,
      reason: String? = nil, base: Bool = true, attempt: Int = 1, retryOf: Int64? = nil
    ) {
      let queuedAt = minutesAgo(queued)
      let startedAt: Date? =
        state == .queued || ([.superseded, .cancelled].contains(state) && took == nil) ? nil : queuedAt + 4
      let finishedAt: Date? = state.isFinal ? startedAt.map { $0 + (took ?? 0) } : nil
      runs.append(
        RunRecord(
          id: id, repository: repository, branch: branch, trigger: trigger, base: base ? sha(Int(id) + 1000) : nil,
          head: branch == "worktree" ? "worktree" : sha(Int(id)), state: state, reason: reason, queuedAt: queuedAt,
          startedAt: startedAt, finishedAt: finishedAt, selectedTestTargets: selected, totalTestTargets: total,
          failedTests: failed, retryOf: retryOf, attempt: attempt, logPath: state == .queued ? nil : "/var/log/\(id)"))
    }
    add(105, "isowords", "main", .fetch, .queued, queued: 0.3, base: false)
    add(104, "isowords", "game-center", .webhook, .queued, queued: 1.5, base: false)
    add(103, "isowords", "main", .fetch, .running, queued: 2.2, selected: 7, total: 25)
    add(
      102, "isowords", "main", .fetch, .failed, queued: 9, took: 72, selected: 9, total: 25, failed: 3,
      reason: "3 tests failed in GameCoreTests, AppFeatureTests")
    add(101, "isowords", "main", .fetch, .superseded, queued: 11, reason: "superseded by run 102", base: false)
    add(
      99, "isowords", "main", .requeue, .passed, queued: 62, took: 184, selected: 25, total: 25, failed: 0,
      attempt: 2, retryOf: 97)
    add(
      97, "isowords", "main", .fetch, .interrupted, queued: 70, took: 30, selected: 25, total: 25,
      reason: "the daemon stopped while the run was going")
    add(
      98, "isowords", "game-center", .api, .error, queued: 65, took: 3,
      reason: "swift package dump-package failed: error: manifest parse error")
    add(96, "isowords", "game-center", .fetch, .passed, queued: 60 * 5, took: 48, selected: 4, total: 25, failed: 0)
    add(
      95, "isowords", "game-center", .fetch, .cancelled, queued: 60 * 6, reason: "cancelled by alice via the API",
      base: false)
    add(
      210, "ripple", "worktree", .watch, .passed, queued: 4, took: 0.8, selected: 0, total: 16, failed: 0,
      reason: "nothing testable was affected")
    add(
      209, "ripple", "worktree", .watch, .failed, queued: 17, took: 35.4, selected: 2, total: 16, failed: 1,
      reason: quoteReason)
    add(
      300, "tools", hostile, .fetch, .failed, queued: 60 * 24 * 3, took: 3725, selected: 1, total: 3, failed: 1,
      reason: "<img src=x onerror=alert(1)> & friends")
    return runs
  }

  /// An isowords-like graph of 25 targets in two packages.
  static var targets: [RunTarget] {
    func lib(_ name: String, _ reasons: [String], package: String = ".") -> RunTarget {
      RunTarget(package: package, name: name, kind: "regular", isTest: false, reasons: reasons)
    }
    func test(
      _ name: String, _ reasons: [String], _ status: TargetStatus?, _ duration: Double? = nil, failures: [String] = [],
      package: String = "."
    ) -> RunTarget {
      RunTarget(
        package: package, name: name, kind: "test", isTest: true, reasons: reasons, status: status, duration: duration,
        failures: failures)
    }
    return [
      lib("SharedModels", ["changed Sources/SharedModels/Move.swift", "changed Sources/SharedModels/Puzzle.swift"]),
      lib("DictionaryClient", ["changed Sources/DictionaryClient/Live.swift"]),
      lib("Styleguide", ["depends on SharedModels"]),
      lib("ApiClient", ["depends on SharedModels"]),
      lib("ApiClientLive", ["depends on ApiClient", "depends on SharedModels"]),
      lib("GameCore", ["depends on SharedModels", "depends on DictionaryClient"]),
      lib("GameFeature", ["depends on GameCore", "depends on ApiClient"]),
      lib("HomeFeature", ["depends on GameFeature"]),
      lib("SettingsFeature", ["depends on ApiClient"]),
      lib("LeaderboardFeature", ["depends on ApiClient"]),
      lib("CubeCore", ["depends on GameCore"]),
      lib("AppFeature", ["depends on HomeFeature", "depends on SettingsFeature"]),
      lib("ServerRouter", ["changed Package.swift (dependencies of ServerRouter)"], package: "Packages/Server"),
      lib("SiteMiddleware", ["depends on ServerRouter"], package: "Packages/Server"),
      test("SharedModelsTests", ["depends on SharedModels"], .passed, 1.2),
      test("ApiClientLiveTests", ["depends on ApiClientLive"], .passed, 3.4),
      test(
        "GameCoreTests", ["depends on GameCore", "changed Tests/GameCoreTests/ScoringTests.swift"], .failed, 12.8,
        failures: [
          "ScoringTests.testScore(): XCTAssertEqual failed: (\"<36>\") is not equal to (\"&37\")",
          "ScoringTests.testBonus(): \u{1B}[31mexpected 2 bonus points, got 0\u{1B}[0m",
        ]),
      test("GameFeatureTests", ["depends on GameFeature"], .passed, 22.1),
      test("HomeFeatureTests", ["depends on HomeFeature"], .notRun),
      test("SettingsFeatureTests", ["depends on SettingsFeature"], .passed, 5.0),
      test("LeaderboardFeatureTests", ["depends on LeaderboardFeature"], nil),
      test("CubeCoreTests", ["depends on CubeCore"], .skipped),
      test(
        "AppFeatureTests", ["depends on AppFeature"], .failed, 41.5,
        failures: ["AppFeatureTests.testOnboarding(): timed out after 30 s"]),
      test("ServerRouterTests", ["depends on ServerRouter"], .passed, 2.2, package: "Packages/Server"),
      test("SiteMiddlewareTests", ["depends on SiteMiddleware"], .passed, 8.9, package: "Packages/Server"),
    ]
  }

  static var edges: [RunEdge] {
    func e(_ from: String, _ to: String, _ fromPackage: String = ".", _ toPackage: String = ".") -> RunEdge {
      RunEdge(from: "\(fromPackage):\(from)", to: "\(toPackage):\(to)")
    }
    let server = "Packages/Server"
    return [
      e("Styleguide", "SharedModels"), e("ApiClient", "SharedModels"), e("ApiClientLive", "ApiClient"),
      e("ApiClientLive", "SharedModels"), e("GameCore", "SharedModels"), e("GameCore", "DictionaryClient"),
      e("GameFeature", "GameCore"), e("GameFeature", "ApiClient"), e("GameFeature", "Styleguide"),
      e("HomeFeature", "GameFeature"), e("HomeFeature", "Styleguide"), e("SettingsFeature", "ApiClient"),
      e("SettingsFeature", "Styleguide"), e("LeaderboardFeature", "ApiClient"), e("CubeCore", "GameCore"),
      e("AppFeature", "HomeFeature"), e("AppFeature", "SettingsFeature"), e("AppFeature", "LeaderboardFeature"),
      e("AppFeature", "ApiClientLive"), e("AppFeature", "CubeCore"),
      e("SharedModelsTests", "SharedModels"), e("ApiClientLiveTests", "ApiClientLive"),
      e("GameCoreTests", "GameCore"), e("GameFeatureTests", "GameFeature"), e("HomeFeatureTests", "HomeFeature"),
      e("SettingsFeatureTests", "SettingsFeature"), e("LeaderboardFeatureTests", "LeaderboardFeature"),
      e("CubeCoreTests", "CubeCore"), e("AppFeatureTests", "AppFeature"),
      e("ServerRouter", "SharedModels", server, "."), e("SiteMiddleware", "ServerRouter", server, server),
      e("SiteMiddleware", "ApiClient", server, "."), e("ServerRouterTests", "ServerRouter", server, server),
      e("SiteMiddlewareTests", "SiteMiddleware", server, server),
    ]
  }

  static var analysis: RunAnalysis {
    RunAnalysis(
      base: sha(1102),
      changedFiles: [
        "Sources/SharedModels/Move.swift", "Sources/SharedModels/Puzzle.swift", "Sources/DictionaryClient/Live.swift",
        "Tests/GameCoreTests/ScoringTests.swift", "Packages/Server/Package.swift", "docs/<notes> & \"ideas\".md",
      ],
      runAllReasons: [], warnings: ["Package.resolved pin swift-nio changed; targets using NIO were added"],
      targets: targets, edges: edges, selectedTestTargets: 11, totalTestTargets: 25)
  }

  static var failedDetail: RunDetail {
    let run = runs.first { $0.id == 102 }!
    let at = run.queuedAt
    return RunDetail(
      run: run, analysis: analysis,
      transitions: [
        RunTransition(runID: 102, from: nil, to: .queued, at: at, note: "new head of main found by fetch"),
        RunTransition(runID: 102, from: .queued, to: .running, at: at + 4),
        RunTransition(runID: 102, from: .running, to: .failed, at: at + 76, note: quoteReason),
      ])
  }

  static var queuedDetail: RunDetail {
    let run = runs.first { $0.id == 105 }!
    return RunDetail(
      run: run, analysis: nil, transitions: [RunTransition(runID: 105, from: nil, to: .queued, at: run.queuedAt)])
  }

  /// A deterministic graph of `count` targets like a large modular code base: two thirds libraries in eight tiers,
  /// each using one to three libraries of the tiers below (mostly the nearest two), one third test targets, each
  /// using its library and sometimes another one.
  static func bigGraph(count: Int) -> (targets: [RunTarget], edges: [RunEdge]) {
    var state: UInt64 = 42
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let libraryCount = count - count / 3
    var targets: [RunTarget] = []
    var edges: [RunEdge] = []
    var tierOf: [Int] = []
    for index in 0..<count {
      let isTest = index >= libraryCount
      let library = isTest ? (index - libraryCount) * libraryCount / max(1, count - libraryCount) : index
      let name =
        isTest ? "Feature\(library)Tests" : "Feature\(index)" + (index % 17 == 0 ? "WithAVeryLongNameIndeed" : "")
      let package = library % 5 == 0 ? "Packages/Module\(library % 4)" : "."
      let tier = isTest ? 8 : index * 8 / max(1, libraryCount)
      let target = RunTarget(
        package: package, name: name, kind: isTest ? "test" : "regular", isTest: isTest,
        reasons: tier == 0 && index % 4 == 0
          ? ["changed Sources/\(name)/File.swift"] : ["depends on Feature\(library)"],
        status: isTest ? [TargetStatus.passed, .passed, .passed, .failed, .notRun][next(5)] : nil)
      var used = Set<Int>()
      if isTest {
        used.insert(library)
        if next(3) == 0 { used.insert(next(libraryCount)) }
      } else if tier > 0 {
        for _ in 0..<(1 + next(3)) {
          let lowest = next(4) == 0 ? 0 : max(0, tier - 2)
          let candidates = (0..<index).filter { tierOf[$0] >= lowest && tierOf[$0] < tier }
          if !candidates.isEmpty { used.insert(candidates[next(candidates.count)]) }
        }
      }
      for dependency in used.sorted() { edges.append(RunEdge(from: target.key, to: targets[dependency].key)) }
      tierOf.append(tier)
      targets.append(target)
    }
    return (targets, edges)
  }
}
