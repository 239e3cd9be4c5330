import Foundation
import RunModel
import Testing

@testable import RunStore

/// Migration v10: a run's line coverage, four counts or NULL (`coverage: true` in rippled.yml).
@Suite struct RunCoverageTests {
  @Test func aRunWithoutCoverageKeepsNullsAndOneWithItRoundTrips() throws {
    try withStore { store, _ in
      let plain = try makeRun(store, in: .passed)
      let measured = try makeRun(store, in: .running)
      let coverage = RunCoverage(linesCovered: 812, linesTotal: 1139, targetsMeasured: 5, targetsNotMeasured: 2)
      try store.recordCoverage(measured.id, coverage)
      _ = try store.finish(measured.id, state: .passed, reason: nil)

      #expect(try store.run(plain.id)?.coverage == nil, "never 0 %: no coverage at all")
      #expect(try count(store, "SELECT COUNT(*) FROM runs WHERE coverageLinesTotal IS NULL") == 1)
      let read = try #require(try store.run(measured.id)?.coverage)
      #expect(read == coverage)
      #expect(read.isPartial)
      #expect(abs((read.percent ?? 0) - 71.29) < 0.01)
      // Every query of runs carries it: the list and the chart's.
      #expect(try store.runs().first { $0.id == measured.id }?.coverage == coverage)
      #expect(try store.coverageRuns(repository: "app", limit: 20).map(\.id) == [measured.id])
    }
  }

  @Test func theChartsRunsAreTheNewestWithCoverageOldestFirst() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      var ids: [Int64] = []
      for index in 0..<5 {
        let run = try makeRun(store, in: .running)
        if index != 2 {
          try store.recordCoverage(
            run.id, RunCoverage(linesCovered: index, linesTotal: 10, targetsMeasured: 1, targetsNotMeasured: 0))
          ids.append(run.id)
        }
        _ = try store.finish(run.id, state: .passed, reason: nil)
        clock.advance(60)
      }
      _ = try makeRun(store, in: .passed, repository: "other")
      #expect(try store.coverageRuns(repository: "app", limit: 3).map(\.id) == Array(ids.suffix(3)))
      #expect(try store.coverageRuns(repository: "other", limit: 3).isEmpty)
      #expect(try store.coverageRuns(repository: "app", limit: 0).isEmpty)
    }
  }

  @Test func countsThatAreNoCoverageAreRefused() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      let error = #expect(throws: RunStoreError.self) {
        try store.recordCoverage(
          run.id, RunCoverage(linesCovered: 11, linesTotal: 10, targetsMeasured: 1, targetsNotMeasured: 0))
      }
      #expect(error?.description.contains("run \(run.id)") == true)
      #expect(try store.run(run.id)?.coverage == nil)
    }
  }

  /// A store written by rippled before v10 opens with its runs intact and without coverage.
  @Test func aStoreFromBeforeV10IsMigratedWithNullCoverage() throws {
    try withTempDirectory { directory in
      let path = directory + "/runs.sqlite"
      try RunStore.createOlderSchema(
        at: path, upTo: "v9: build and test time",
        sql: """
          INSERT INTO runs (repository, branch, trigger, head, state, queuedAt, finishedAt, buildSeconds)
          VALUES ('app', 'main', 'fetch', 'c0ffee', 'passed', 1700000000, 1700000060, 12.5)
          """)
      let store = try RunStore(path: path)
      let old = try #require(try store.runs().first)
      #expect(old.buildSeconds == 12.5)
      #expect(old.coverage == nil)
      #expect(try store.coverageRuns(repository: "app", limit: 20).isEmpty)
      let coverage = RunCoverage(linesCovered: 0, linesTotal: 40, targetsMeasured: 1, targetsNotMeasured: 0)
      try store.recordCoverage(old.id, coverage)
      #expect(try store.run(old.id)?.coverage?.percent == 0, "a measured 0 % is a value, unlike NULL")
    }
  }

  @Test func theAPIJSONCarriesThePercentAndReadsBack() throws {
    let coverage = RunCoverage(linesCovered: 1, linesTotal: 3, targetsMeasured: 2, targetsNotMeasured: 1)
    let text = String(decoding: try JSONEncoder().encode(coverage), as: UTF8.self)
    #expect(text.contains("\"percent\":33.33") && text.contains("\"partial\":true"))
    #expect(try JSONDecoder().decode(RunCoverage.self, from: Data(text.utf8)) == coverage)
    let none = RunCoverage(linesCovered: 0, linesTotal: 0, targetsMeasured: 0, targetsNotMeasured: 3)
    #expect(none.percent == nil)
    #expect(!String(decoding: try JSONEncoder().encode(none), as: UTF8.self).contains("percent"))
  }
}
