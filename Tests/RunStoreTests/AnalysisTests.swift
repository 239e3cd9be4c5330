import Foundation
import RunModel
import Testing

@testable import RunStore

let sampleAnalysis = RunAnalysis(
  base: "1111111111111111111111111111111111111111",
  changedFiles: ["Sources/Net/Client.swift", "Package.swift", "Résumé/naïve \"quoted\".txt"],
  runAllReasons: [],
  warnings: ["unowned files: Scripts/x.sh (add them to selection.ignore)"],
  targets: [
    RunTarget(package: ".", name: "Net", kind: "library", isTest: false, reasons: ["changed Sources/Net/Client.swift"]),
    RunTarget(package: ".", name: "NetTests", kind: "test", isTest: true, reasons: ["depends on Net"]),
    RunTarget(
      package: "Shared", name: "CoreTests", kind: "test", isTest: true,
      reasons: ["Package.swift: entry changed", "depends on Net"]),
  ],
  edges: [RunEdge(from: ".:NetTests", to: ".:Net"), RunEdge(from: "Shared:CoreTests", to: ".:Net")],
  selectedTestTargets: 2, totalTestTargets: 7)

@Suite("Analysis and results")
struct AnalysisTests {
  @Test func theAnalysisRoundTripsThroughDetail() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      #expect(try store.detail(run.id)?.analysis == nil)
      try store.recordAnalysis(run.id, sampleAnalysis)

      let detail = try #require(try store.detail(run.id))
      #expect(detail.analysis == sampleAnalysis)
      #expect(detail.run.base == sampleAnalysis.base)
      #expect(detail.run.selectedTestTargets == 2 && detail.run.totalTestTargets == 7)
      // The list query carries the counts, not the lists.
      #expect(try store.runs().first == detail.run)
    }
  }

  @Test func runAllReasonsAndAMissingBaseRoundTrip() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      let analysis = RunAnalysis(
        base: nil, changedFiles: [], runAllReasons: ["global file Makefile", "manifest failed: fallback all"],
        targets: [], edges: [], selectedTestTargets: 40, totalTestTargets: 40)
      try store.recordAnalysis(run.id, analysis)
      #expect(try store.detail(run.id)?.analysis == analysis)
    }
  }

  @Test func timeEstimatesRoundTripOnTheRunAndTheAnalysis() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      var analysis = sampleAnalysis
      analysis.fullSuiteSeconds = 840.5
      analysis.selectedSeconds = 65
      try store.recordAnalysis(run.id, analysis)
      let detail = try #require(try store.detail(run.id))
      #expect(detail.analysis == analysis)
      #expect(detail.run.fullSuiteSeconds == 840.5 && detail.run.selectedSeconds == 65)
      #expect(try store.runs().first?.fullSuiteSeconds == 840.5)
    }
  }

  @Test func recordingAnAnalysisAgainReplacesIt() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      try store.recordAnalysis(run.id, sampleAnalysis)
      var second = sampleAnalysis
      second.base = "2222222222222222222222222222222222222222"
      second.targets = [second.targets[1]]
      second.edges = []
      second.changedFiles = ["Tests/NetTests/A.swift"]
      second.selectedTestTargets = 1
      try store.recordAnalysis(run.id, second)
      #expect(try store.detail(run.id)?.analysis == second)
    }
  }

  @Test func resultsUpdateTestTargetsAndAddUnknownOnes() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      let other = try makeRun(store, in: .running, head: "other")
      try store.recordAnalysis(run.id, sampleAnalysis)
      try store.recordAnalysis(other.id, sampleAnalysis)
      try store.recordResults(
        run.id,
        [
          TargetOutcome(package: ".", name: "NetTests", status: .passed, duration: 1.5),
          TargetOutcome(
            package: "Shared", name: "CoreTests", status: .failed, duration: 12.25,
            failures: ["CoreTests.parses: expected 1, got 2", "CoreTests.saves: timeout"]),
          TargetOutcome(package: "Tools", name: "LintTests", status: .notRun),
        ], failedTests: 2)

      let detail = try #require(try store.detail(run.id))
      #expect(detail.run.failedTests == 2)
      let targets = try #require(detail.analysis?.targets)
      #expect(targets.count == 4)
      #expect(targets[0] == sampleAnalysis.targets[0])
      #expect(
        targets[1]
          == RunTarget(
            package: ".", name: "NetTests", kind: "test", isTest: true, reasons: ["depends on Net"], status: .passed,
            duration: 1.5))
      #expect(targets[2].status == .failed && targets[2].duration == 12.25)
      #expect(targets[2].failures == ["CoreTests.parses: expected 1, got 2", "CoreTests.saves: timeout"])
      #expect(targets[2].reasons == ["Package.swift: entry changed", "depends on Net"])
      #expect(
        targets[3]
          == RunTarget(package: "Tools", name: "LintTests", kind: "test", isTest: true, reasons: [], status: .notRun))
      // The rest of the analysis is untouched, and so is the other run.
      #expect(detail.analysis?.edges == sampleAnalysis.edges)
      #expect(detail.analysis?.changedFiles == sampleAnalysis.changedFiles)
      #expect(try store.detail(other.id)?.analysis == sampleAnalysis)
      #expect(try store.run(other.id)?.failedTests == nil)
    }
  }

  @Test func resultsWithoutAnAnalysisStillShowInDetail() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      try store.recordResults(run.id, [TargetOutcome(package: ".", name: "AppTests", status: .skipped)], failedTests: 0)
      let analysis = try #require(try store.detail(run.id)?.analysis)
      #expect(analysis.targets.map(\.key) == [".:AppTests"])
      #expect(analysis.targets.first?.status == .skipped)
      #expect(analysis.changedFiles.isEmpty)
    }
  }
}
