import Foundation
import RunModel
import Testing

@testable import RunStore

/// The state path that leads from queued to `state`.
func path(to state: RunState) -> [RunState] {
  switch state {
  case .queued: []
  case .running: [.running]
  case .superseded, .cancelled: [state]
  case .passed, .failed, .error, .interrupted: [.running, state]
  }
}

@Suite("Listing runs")
struct ListTests {
  /// 3,000 runs over 3 repositories × 2 branches, in every state.
  static func seed(_ store: RunStore) throws -> [RunRecord] {
    let repositories = ["app", "tools", "site"]
    let branches = ["main", "dev"]
    let states: [RunState] = [.passed, .failed, .passed, .error, .superseded, .cancelled, .interrupted, .passed]
    var runs: [(new: NewRun, states: [RunState])] = (0..<3_000).map { index in
      let new = NewRun(
        repository: repositories[index % 3], branch: branches[(index / 3) % 2], head: "head-\(index)", trigger: .fetch)
      return (new, path(to: states[index % states.count]))
    }
    runs[2_990].states = []
    runs[2_995].states = [.running]
    return try store.seed(runs, at: Date(timeIntervalSince1970: 1_700_000_000))
  }

  @Test func filtersPagesAndOrdersNewestFirst() throws {
    try withStore { store, _ in
      let all = try Self.seed(store)
      let newestFirst = all.sorted { $0.id > $1.id }

      #expect(try store.runs() == Array(newestFirst.prefix(50)))
      #expect(try store.runs(limit: 0).isEmpty)
      #expect(try store.runs(states: []).isEmpty)

      let cases: [(String?, String?, Set<RunState>?)] = [
        (nil, nil, nil), ("app", nil, nil), ("tools", "dev", nil), (nil, nil, [.failed]),
        (nil, nil, [.failed, .error, .interrupted]), ("site", "main", [.passed, .superseded]),
        (nil, "dev", [.queued, .running]), ("nope", nil, nil),
      ]
      for (repository, branch, states) in cases {
        let expected = newestFirst.filter {
          (repository == nil || $0.repository == repository) && (branch == nil || $0.branch == branch)
            && (states == nil || states!.contains($0.state))
        }
        // Page through with `before` until a short page.
        var pages: [RunRecord] = []
        var before: Int64?
        while true {
          let page = try store.runs(repository: repository, branch: branch, states: states, limit: 97, before: before)
          pages += page
          guard page.count == 97, let last = page.last else { break }
          before = last.id
        }
        let label = "\(repository ?? "*") \(branch ?? "*") \(states.map { $0.map(\.rawValue).sorted() } ?? [])"
        #expect(pages.count == expected.count, "\(label)")
        #expect(pages == expected, "\(label)")
        #expect(
          try store.runs(repository: repository, branch: branch, states: states, limit: 5)
            == Array(expected.prefix(5)), "\(label)")
      }
    }
  }

  @Test func countsQueuedAndHeads() throws {
    try withStore { store, _ in
      let all = try Self.seed(store)
      let counts = try store.countsByState()
      for state in RunState.allCases {
        #expect(counts[state] == all.filter { $0.state == state }.count, "\(state)")
      }
      #expect(counts[.queued] == 1 && counts[.running] == 1)
      #expect(try store.queued() == all.filter { $0.state == .queued })
      #expect(
        try store.lastHead(repository: "site", branch: "dev")
          == all.last { $0.repository == "site" && $0.branch == "dev" }?.head)
    }
  }

  @Test func queuedListsOldestFirst() throws {
    try withStore { store, _ in
      let first = try makeRun(store, in: .queued, head: "a")
      try makeRun(store, in: .running, head: "b")
      let second = try makeRun(store, in: .queued, head: "c")
      try makeRun(store, in: .cancelled, head: "d")
      let third = try makeRun(store, in: .queued, branch: "dev", head: "e")
      #expect(try store.queued().map(\.id) == [first.id, second.id, third.id])
    }
  }

  @Test func passedRunsSkipRunsThatDidNotPassNewestFirst() throws {
    try withStore { store, _ in
      #expect(try store.passedRuns(repository: "app", branch: "main").isEmpty)
      try makeRun(store, in: .passed, head: "old-pass")
      try makeRun(store, in: .passed, head: "newest-pass")
      try makeRun(store, in: .passed, branch: "dev", head: "other-branch")
      try makeRun(store, in: .passed, repository: "tools", head: "other-repo")
      for state in [RunState.failed, .cancelled, .superseded, .interrupted, .error, .running, .queued] {
        try makeRun(store, in: state, head: "\(state.rawValue)-head")
      }
      #expect(try store.passedRuns(repository: "app", branch: "main").map(\.head) == ["newest-pass", "old-pass"])
      #expect(try store.passedRuns(repository: "app", branch: "main", limit: 1).map(\.head) == ["newest-pass"])
      #expect(try store.passedRuns(repository: "app", branch: "dev").map(\.head) == ["other-branch"])
      #expect(try store.passedRuns(repository: "tools", branch: "main").map(\.head) == ["other-repo"])
      #expect(try store.passedRuns(repository: "site", branch: "main").isEmpty)
      #expect(try store.lastHead(repository: "app", branch: "main") == "queued-head")
      #expect(try store.lastHead(repository: "app", branch: "dev") == "other-branch")
      #expect(try store.lastHead(repository: "site", branch: "main") == nil)
    }
  }

  /// A pass whose targets were skipped for records proves the records' commits, not its own: no base.
  @Test func aPassedRunWithATargetServedFromAPassRecordIsNoBase() throws {
    try withStore { store, _ in
      let proven = try makeRun(store, in: .passed, head: "ran-everything")
      try store.recordResults(
        proven.id, [TargetOutcome(package: ".", name: "AppTests", status: .passed)], failedTests: 0)
      let cached = try makeRun(store, in: .passed, head: "served-from-records")
      try store.recordResults(
        cached.id,
        [
          TargetOutcome(package: ".", name: "AppTests", status: .passed),
          TargetOutcome(package: ".", name: "CoreTests", status: .cached),
        ], failedTests: 0)
      #expect(try store.passedRuns(repository: "app", branch: "main").map(\.head) == ["ran-everything"])
    }
  }

  /// The runs list says "2 run, 4 cached" as the run page does: each run counts its cached test targets.
  @Test func aRunCountsItsCachedTestTargets() throws {
    try withStore { store, _ in
      let ran = try makeRun(store, in: .passed, head: "ran-everything")
      try store.recordResults(ran.id, [TargetOutcome(package: ".", name: "AppTests", status: .passed)], failedTests: 0)
      let served = try makeRun(store, in: .passed, head: "served-from-records")
      try store.recordResults(
        served.id,
        [
          TargetOutcome(package: ".", name: "AppTests", status: .passed),
          TargetOutcome(package: ".", name: "CoreTests", status: .cached),
          TargetOutcome(package: "Packages/Net", name: "NetTests", status: .cached),
        ], failedTests: 0)
      #expect(try store.runs().map(\.cachedTestTargets) == [2, nil])
      #expect(try store.run(served.id)?.cachedTestTargets == 2)
      #expect(try store.detail(served.id)?.run.cachedTestTargets == 2)
      let history = try store.targetHistory(repository: "app", package: ".", name: "AppTests")
      #expect(history.map(\.run.cachedTestTargets) == [2, nil])
    }
  }
}
