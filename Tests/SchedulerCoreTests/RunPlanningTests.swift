import Foundation
import RippleConfig
import RunModel
import Testing

@testable import SchedulerCore

@Suite("a run's base and its recorded ending")
struct RunPlanningTests {
  let rules: [BranchRule] = [.init(pattern: "main"), .init(pattern: "feature/*")]

  func run(_ branch: String, _ trigger: RunTrigger = .fetch, head: String = "c3") -> RunRecord {
    RunRecord(
      id: 1, repository: "app", branch: branch, trigger: trigger, head: head, state: .running,
      queuedAt: Date(timeIntervalSince1970: 0))
  }

  /// A small history: main c0 ← c1 ← c2 ← c3 ← c4, feature/x branching at c1: c1 ← f1 ← f2; `gone` is not in the
  /// repository. `ancestry(a, b)`: a is b or one of its ancestors.
  static let parents: [String: String] = ["c1": "c0", "c2": "c1", "c3": "c2", "c4": "c3", "f1": "c1", "f2": "f1"]
  static func ancestry(_ a: String, _ b: String) -> Bool? {
    guard a != "gone", b != "gone" else { return nil }
    var commit: String? = b
    while let current = commit {
      if current == a { return true }
      commit = parents[current]
    }
    return false
  }

  func passed(_ runs: [String: [RunPlanning.PassedRun]]) -> (String) -> [RunPlanning.PassedRun] {
    { runs[$0] ?? [] }
  }

  func pass(_ id: Int64, _ branch: String, _ head: String, base: String? = nil, selected: Int? = 1)
    -> RunPlanning.PassedRun
  {
    RunPlanning.PassedRun(id: id, branch: branch, head: head, base: base, selectedTestTargets: selected)
  }

  @Test func theBaseIsTheNewestPassingAncestorNeverADescendantOrTheHeadItself() {
    // c4 passed after c2 failed and c3 fixed it; a run of c2 again must not compare with c3 or c4.
    let main = [pass(9, "main", "c4", base: "c3"), pass(8, "main", "c3", base: "c1"), pass(5, "main", "c1")]
    let ofC2 = RunPlanning.base(
      for: run("main", head: "c2"), rules: rules, passedRuns: passed(["main": main]), ancestry: Self.ancestry)
    #expect(
      ofC2
        == .compare(base: "c1", note: "comparing with c1, the newest ancestor of c2 whose run passed (run 5)"))
    // By ancestry, not by run order: c3's run (8) is older than c4's (9) but c4 is not an ancestor of c3.
    let ofC3 = RunPlanning.base(
      for: run("main", head: "c3"), rules: rules, passedRuns: passed(["main": main]), ancestry: Self.ancestry)
    #expect(ofC3 == .compare(base: "c1", note: "comparing with c1, the newest ancestor of c3 whose run passed (run 5)"))
    let ofC4Again = RunPlanning.base(
      for: run("main", head: "c4"), rules: rules, passedRuns: passed(["main": main]), ancestry: Self.ancestry)
    #expect(
      ofC4Again == .compare(base: "c3", note: "comparing with c3, the newest ancestor of c4 whose run passed (run 8)"))
  }

  @Test func aNewBranchComparesWithThePrimarysNewestPassingAncestorThenNothing() {
    let main = [pass(9, "main", "c4", base: "c3"), pass(5, "main", "c1")]
    let fresh = RunPlanning.base(
      for: run("feature/x", head: "f2"), rules: rules, passedRuns: passed(["main": main]), ancestry: Self.ancestry)
    #expect(
      fresh
        == .compare(
          base: "c1",
          note: "comparing with c1, the newest ancestor of f2 whose run passed (run 5) "
            + "(a commit of main: feature/x has none of its own)"))
    let own = RunPlanning.base(
      for: run("feature/x", head: "f2"), rules: rules,
      passedRuns: passed(["main": main, "feature/x": [pass(7, "feature/x", "f1", base: "c1")]]), ancestry: Self.ancestry
    )
    #expect(own == .compare(base: "f1", note: "comparing with f1, the newest ancestor of f2 whose run passed (run 7)"))
    #expect(
      RunPlanning.base(for: run("main"), rules: rules, passedRuns: passed([:]), ancestry: Self.ancestry)
        == .everything(reason: "no passing run among the ancestors of c3 yet: every test runs"))
  }

  @Test func aPassThatTestedNothingAgainstADescendantMakesNoBase() {
    // The bug this rule closes: a re-run of c2 compared with c3 (a descendant), selected 0 targets, "passed".
    let main = [pass(10, "main", "c2", base: "c3", selected: 0), pass(5, "main", "c1")]
    let next = RunPlanning.base(
      for: run("main", head: "c3"), rules: rules, passedRuns: passed(["main": main]), ancestry: Self.ancestry)
    #expect(next == .compare(base: "c1", note: "comparing with c1, the newest ancestor of c3 whose run passed (run 5)"))
    // A run of everything that found no test target proves nothing either; a diff against a passing ancestor
    // that selected nothing does.
    #expect(!RunPlanning.proves(pass(1, "main", "c1", selected: 0), Self.ancestry))
    #expect(RunPlanning.proves(pass(1, "main", "c2", base: "c1", selected: 0), Self.ancestry))
    #expect(!RunPlanning.proves(pass(1, "main", "c2", base: "gone", selected: 3), Self.ancestry))
  }

  @Test func aRerunComparesWithTheOriginalRunsBaseOrTestsEverything() {
    let main = [pass(9, "main", "c3", base: "c1")]
    var original = run("main", head: "c2")
    original.id = 4
    original.base = "c1"
    original.selectedTestTargets = 2
    let rerun = RunPlanning.base(
      for: run("main", .api, head: "c2"), rules: rules, original: original, passedRuns: passed(["main": main]),
      ancestry: Self.ancestry)
    #expect(rerun == .compare(base: "c1", note: "re-run of run 4: comparing with c1, the base it compared with"))

    original.base = nil
    #expect(
      RunPlanning.base(
        for: run("main", .api, head: "c2"), rules: rules, original: original, passedRuns: passed([:]),
        ancestry: Self.ancestry) == .everything(reason: "re-run of run 4, which ran every test: every test runs"))

    original.base = "gone"
    #expect(
      RunPlanning.base(
        for: run("main", .api, head: "c2"), rules: rules, original: original, passedRuns: passed([:]),
        ancestry: Self.ancestry)
        == .everything(
          reason: "re-run of run 4: its base gone is no longer in the repository (garbage-collected?): every test runs")
    )

    // An original that compared with a descendant (recorded before this rule): the base is chosen again.
    original.base = "c3"
    #expect(
      RunPlanning.base(
        for: run("main", .api, head: "c2"), rules: rules, original: original,
        passedRuns: passed(["main": [pass(5, "main", "c1")]]), ancestry: Self.ancestry)
        == .compare(base: "c1", note: "comparing with c1, the newest ancestor of c2 whose run passed (run 5)"))
  }

  @Test func aGarbageCollectedPassingCommitIsNoBase() {
    let main = [pass(9, "main", "gone", base: "c1"), pass(5, "main", "c1")]
    #expect(
      RunPlanning.base(
        for: run("main", head: "c3"), rules: rules, passedRuns: passed(["main": main]), ancestry: Self.ancestry)
        == .compare(base: "c1", note: "comparing with c1, the newest ancestor of c3 whose run passed (run 5)"))
  }

  @Test func aCanaryTestsEverythingWithoutAskingTheStore() {
    let base = RunPlanning.base(
      for: run("main", .canary), rules: rules,
      passedRuns: { branch in
        Issue.record("a canary asked for the passed runs of \(branch)")
        return []
      }, ancestry: Self.ancestry)
    guard case .everything(let reason) = base else {
      Issue.record("a canary compared with a base: \(base)")
      return
    }
    #expect(reason.hasPrefix("canary"))
  }

  @Test func aCauseFromOutsideWinsOverTheWorksOwnOutcome() {
    #expect(
      RunPlanning.ending(cause: .superseded(by: 7), outcome: .passed(nil)) == (
        .superseded, "superseded by run 7 while it ran"
      ))
    #expect(
      RunPlanning.ending(cause: .timedOut(.daemon(.seconds(4))), outcome: .cancelled) == (
        .error, "timed out after 4.0 seconds (runTimeout in rippled.yml); its processes were stopped"
      ))
    #expect(
      RunPlanning.ending(cause: .timedOut(RunTimeLimit(.seconds(2), setting: .repository)), outcome: .passed(nil)) == (
        .error, "timed out after 2.0 seconds (daemon.runTimeout in ripple.yml); its processes were stopped"
      ))
    #expect(RunPlanning.ending(cause: .shutdown, outcome: .cancelled).state == .interrupted)
    #expect(
      RunPlanning.ending(cause: .cancelledByUser, outcome: .failed("x")) == (.cancelled, "cancelled through the API"))
    #expect(
      RunPlanning.ending(cause: nil, outcome: .passed("nothing testable is affected")) == (
        .passed, "nothing testable is affected"
      ))
    #expect(
      RunPlanning.ending(cause: nil, outcome: .retryLater("short of descriptors")) == (.error, "short of descriptors"))
    #expect(RunPlanning.ending(cause: nil, outcome: .cancelled) == (.interrupted, "stopped without a recorded cause"))
  }
}
