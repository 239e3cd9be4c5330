import Foundation
import RippleConfig
import RunModel
import Testing

@testable import SchedulerCore

@Suite("a run's base and its recorded ending")
struct RunPlanningTests {
  let rules: [BranchRule] = [.init(pattern: "main"), .init(pattern: "feature/*")]

  func run(_ branch: String, _ trigger: RunTrigger = .fetch) -> RunRecord {
    RunRecord(
      id: 1, repository: "app", branch: branch, trigger: trigger, head: String(repeating: "b", count: 40),
      state: .running, queuedAt: Date(timeIntervalSince1970: 0))
  }

  @Test func aBranchComparesWithItsLastPassingCommitThenThePrimarysThenNothing() {
    let passed = ["main": String(repeating: "a", count: 40), "feature/x": String(repeating: "c", count: 40)]
    let own = RunPlanning.base(for: run("feature/x"), rules: rules) { passed[$0] }
    #expect(
      own
        == .compare(
          base: passed["feature/x"]!, note: "comparing with cccccccccc, the last commit of feature/x whose run passed"))
    let fresh = RunPlanning.base(for: run("feature/y"), rules: rules) { passed[$0] }
    #expect(
      fresh
        == .compare(
          base: passed["main"]!,
          note: "first run of feature/y: comparing with aaaaaaaaaa, the last passing commit of main"))
    // The primary branch itself never falls back to itself; without any passing run, every test runs.
    #expect(
      RunPlanning.base(for: run("main"), rules: rules) { _ in nil }
        == .everything(reason: "no passing run of main yet: every test runs"))
    #expect(
      RunPlanning.base(for: run("feature/y"), rules: []) { _ in nil }
        == .everything(reason: "no passing run of feature/y yet: every test runs"))
  }

  @Test func aCanaryTestsEverythingWithoutAskingTheStore() {
    let base = RunPlanning.base(for: run("main", .canary), rules: rules) { branch -> String? in
      Issue.record("a canary asked for the last passing head of \(branch)")
      return nil
    }
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
