import Affected
import Foundation
import Git
import PassRecords
import RippleCore
import TestRunner
import TestSupport
import Testing

@testable import RippleKit

private let now = Date(timeIntervalSince1970: 1_800_000_000)

private func green(
  _ commit: String, _ minutes: Double, shard: String? = nil, all: Bool = false, base: String? = nil,
  branch: String = "main"
) -> HistoryRecord.Green {
  HistoryRecord.Green(
    commit: commit, branch: branch, time: now.addingTimeInterval(minutes * 60), run: "run \(commit)", shard: shard,
    all: all, base: base)
}

@Suite struct SharedHistoryTests {
  @Test func aCommitIsGreenWhenEveryShardPassedAndItsBaseWasGreen() {
    let greens = [
      green("c1", 0, all: true),
      // Two of three shards: not green.
      green("c2", 1, shard: "1/3", base: "c1"), green("c2", 2, shard: "2/3", base: "c1"),
      // All of two shards.
      green("c3", 3, shard: "1/2", base: "c1"), green("c3", 4, shard: "2/2", base: "c1"),
      // Compared with a commit nobody proved: a run of nothing proves nothing.
      green("c4", 5, base: "unknown"),
      green("c5", 6, base: "c3"),
      green("c6", 7, all: true, branch: "feature/x"),
    ]
    #expect(GreenCommits.passed(greens, branch: "main").map(\.commit) == ["c1", "c3", "c5"])
  }

  @Test func theNewestGreenIsChosenByAncestryNotByTime() {
    // c2 descends from c1, but c1's run was recorded later (a re-run of an old commit).
    let candidates = [green("c1", 10, all: true), green("c2", 1, all: true)]
    let newest = GreenCommits.newest(candidates) { a, b in a == "c1" && b == "c2" }
    #expect(newest?.commit == "c2")
    #expect(GreenCommits.newest([], isAncestor: { _, _ in false }) == nil)
  }

  @Test func aGreenCommitThatIsNotAnAncestorOrNotInThisCloneIsNeverTheBase() {
    let (a, b, side, gone) = (
      String(repeating: "a", count: 40), String(repeating: "b", count: 40), String(repeating: "c", count: 40),
      String(repeating: "d", count: 40)
    )
    let head = String(repeating: "e", count: 40)
    // History: a ← b ← head; `side` is on another line; `gone` is not in this (shallow) clone.
    let ancestors: [String: Set<String>] = [head: [a, b, head], b: [a, b], a: [a], side: [side]]
    let greens = [green(a, 0, all: true), green(side, 5, all: true), green(b, 1, all: true), green(gone, 9, all: true)]
    let (base, missing) = GreenCommits.choose(
      greens, isHere: { $0 != gone }, isAncestor: { x, y in ancestors[y]?.contains(x) == true }, head: head)
    #expect(base?.commit == b, "the newest green ancestor; side is newer by time but not an ancestor")
    #expect(missing == 1)
    let none = GreenCommits.choose(
      [green(side, 0, all: true)], isHere: { _ in true }, isAncestor: { x, y in ancestors[y]?.contains(x) == true },
      head: head)
    #expect(none.base == nil && none.missing == 0)
  }

  @Test func aStoresTextIsNeverTakenForARevision() {
    #expect(GreenCommits.isCommitName(String(repeating: "a", count: 40)))
    for text in ["HEAD", "main~1", String(repeating: "A", count: 40), "--output=/tmp/x", ""] {
      #expect(!GreenCommits.isCommitName(text))
    }
  }

  @Test(arguments: [
    ("git@github.com:Org/App.git", "github.com/Org/App"),
    ("https://user:token@GitHub.com/Org/App.git/", "github.com/Org/App"),
    ("ssh://git@gitlab.example:2222/group/app", "gitlab.example:2222/group/app"),
    ("/srv/git/app.git", "/srv/git/app"),
  ])
  func everyCloneOfARepositoryHasOneNamespaceWithoutCredentials(url: String, expected: String) {
    #expect(HistoryNamespace.normalize(url) == expected)
  }

  @Test func aRunAddsItsTimesItsNotSimplyPassingTestsAndItsGreen() {
    var record = HistoryRecord(namespace: "n", scope: "protected", slot: 0, writer: "w", time: now)
    var flaky = TestCaseResult(suite: "S", name: "flaky", framework: .xctest, status: .passed, duration: 1)
    flaky.flaky = true
    let result = TestRunResult(packages: [
      PackageResult(
        path: ".", status: .passed,
        targets: [
          TargetResult(
            name: "T",
            tests: [
              TestCaseResult(suite: "S", name: "a", framework: .xctest, status: .passed, duration: 2), flaky,
            ])
        ])
    ])
    SharedHistoryUpdate.add(
      result, scopes: [:], to: &record, at: now, green: green("c1", 0, all: true))
    #expect(record.targets[".:T"]?.seconds == 3)
    #expect(record.targets[".:T"]?.tests == ["S/a": 2, "S/flaky": 1])
    #expect(Array(record.outcomes.keys) == [".|T.S/flaky"], "a test that only passed is not kept")
    #expect(record.outcomes[".|T.S/flaky"]?.days[HistoryRecord.day(now)]?.flaky == 1)
    #expect(record.greens.map(\.commit) == ["c1"])
    // The next run of the flaky test counts, passing or not.
    SharedHistoryUpdate.add(result, scopes: [:], to: &record, at: now, green: nil)
    #expect(record.outcomes[".|T.S/flaky"]?.days[HistoryRecord.day(now)]?.runs == 2)
    // As `ripple flaky` reads it.
    let flakyTests = record.outcomeHistory.flakyTests(since: now.addingTimeInterval(-86_400), now: now)
    #expect(flakyTests.map(\.test) == ["T.S/flaky"])
  }

  @Test func theTeamsTimesWinOverThisMachinesForTheTargetsTheyKnow() {
    var local = TimingHistory()
    local.packages = [".": ["A": 1, "B": 2]]
    var shared = TimingHistory()
    shared.packages = [".": ["A": 9]]
    shared.tests = [".": ["A": ["S/t": 9]]]
    let merged = local.overlaid(with: shared)
    #expect(merged.packages["."] == ["A": 9, "B": 2])
    #expect(merged.tests["."]?["A"] == ["S/t": 9])
  }

  @Test func thisMachinesAndTheTeamsOutcomesCountARunOnce() {
    var local = OutcomeHistory()
    local.tests["k"] = .init(package: ".", test: "T.S/t", days: ["2027-01-15": .init(runs: 3, flaky: 1)])
    var shared = OutcomeHistory()
    shared.tests["k"] = .init(package: ".", test: "T.S/t", days: ["2027-01-15": .init(runs: 5, flaky: 1)])
    shared.tests["j"] = .init(package: ".", test: "T.S/u", days: ["2027-01-15": .init(runs: 1, failed: 1)])
    let merged = local.merged(with: shared)
    #expect(merged.tests["k"]?.days["2027-01-15"] == .init(runs: 5, flaky: 1))
    #expect(merged.tests.count == 2)
  }
}

@Suite struct ChangedFileListTests {
  let root = "/work/repo"

  func parse(_ text: String) throws -> [String] {
    try ChangedFileList.parse(Data(text.utf8), source: "list.txt", repositoryRoot: root)
  }

  @Test func pathsAreReadAsGitDiffNameOnlyWritesThem() throws {
    #expect(
      try parse("Sources/A/a.swift\r\n./README.md\n\n/work/repo/Packages/Core/x.swift\n  \n")
        == ["Sources/A/a.swift", "README.md", "Packages/Core/x.swift"])
  }

  @Test(arguments: [
    ("a.swift\n/etc/passwd\n", 2, "outside the repository"),
    ("../other/x.swift\n", 1, "not a path inside the repository"),
    ("Sources/../../x\n", 1, "not a path inside the repository"),
    ("a.swift\0b.swift\n", 1, "NUL byte"),
    ("/work/repository-other/x\n", 1, "outside the repository"),
  ])
  func aBadLineIsAUsageErrorNamingItsLine(text: String, line: Int, reason: String) {
    #expect {
      try parse(text)
    } throws: { error in
      guard let error = error as? ChangeListError else { return false }
      return error.category == .usage && error.description.contains("list.txt:\(line)")
        && error.description.contains(reason)
    }
  }

  @Test func textThatIsNotUTF8IsRefused() {
    #expect(throws: ChangeListError.self) {
      try ChangedFileList.parse(Data([0x61, 0xFF, 0x0A]), source: "list.txt", repositoryRoot: root)
    }
  }

  @Test func aLineNamingAFolderIsAUsageErrorAndASubmoduleIsNot() throws {
    let repo = try GitFixture()
    try repo.write("Sources/A/a.swift", "let a = 1\n")
    let head = try repo.commitAll("initial")
    let repository = try GitRepository.discover(from: repo.root)
    for named in [nil, ObjectID(hex: head)] as [ObjectID?] {
      #expect {
        try ChangeDetection.detect(given: ["Sources/A"], request: ChangeRequest(), head: named, in: repository)
      } throws: { error in
        guard let error = error as? ChangeListError else { return false }
        return error.category == .usage && error.description.contains("names the folder `Sources/A`")
      }
      // A deleted file is no folder: it is a deletion.
      let gone = try ChangeDetection.detect(
        given: ["Sources/B/b.swift"], request: ChangeRequest(), head: named, in: repository)
      #expect(gone.changes.map(\.status) == [.deleted])
    }
  }

  @Test func aLinkToAFolderIsAFileAndIsNotStatedAgainForTheTreesLinks() throws {
    let repo = try GitFixture()
    try repo.write("Sources/A/a.swift", "let a = 1\n")
    _ = try repo.commitAll("initial")
    try FileManager.default.createSymbolicLink(atPath: repo.root + "/Sources/Alias", withDestinationPath: "A")
    let repository = try GitRepository.discover(from: repo.root)
    // git records a link as a file, whatever it leads to: a changed one, never "a folder".
    let given = try ChangeDetection.detect(
      given: ["Sources/Alias", "Sources/A/a.swift", "Sources/A/a.swift", "Gone.swift"], request: ChangeRequest(),
      head: nil, in: repository)
    #expect(given.changes.map(\.path) == ["Gone.swift", "Sources/A/a.swift", "Sources/Alias"], "sorted, each once")
    #expect(given.changes.map(\.status) == [.deleted, .modified, .modified])
    #expect(given.notLinks == ["Sources/A/a.swift"], "the link and the missing file are not known to be no link")
  }

  /// At the size of a large change (`make bench keys` times `--changed-files` at 100,000 files).
  @Test func aHundredThousandLinesAreReadInOnePass() throws {
    var text = ""
    text.reserveCapacity(4_000_000)
    for index in 0..<100_000 { text += "Sources/Feature\(index % 100)/File\(index).swift\n" }
    let paths = try parse(text)
    #expect(paths.count == 100_000)
    #expect(paths.last == "Sources/Feature99/File99999.swift")
  }
}

@Suite struct FullRunTests {
  @Test func onlyAWholeUnshardedRunWithNothingCachedMeasuresTheSuite() throws {
    let result = TestRunResult(
      packages: [PackageResult(path: ".", status: .passed, buildDuration: 30)], duration: 50)
    let job = TestJob(
      selection: TestSelection(packages: []), options: TestRunOptions(repositoryRoot: "/r"), history: TimingHistory(),
      timingStore: TimingStore(path: "/r/t.json"), warnings: [], nothingMessage: "")
    let all = green("c1", 0, all: true)
    let full = try #require(SharedHistoryUpdate.fullRun(result, job: job, green: all))
    #expect(full.seconds == 50 && full.buildSeconds == 30)
    #expect(SharedHistoryUpdate.fullRun(result, job: job, green: green("c1", 0, base: "c0")) == nil)
    #expect(SharedHistoryUpdate.fullRun(result, job: job, green: green("c1", 0, shard: "1/2", all: true)) == nil)
    var cached = job
    cached.cached = [
      CachedTarget(
        package: ".", name: "T", run: nil, key: "k", commit: "c", branch: "main", passedIn: "r", time: now,
        signer: nil, tests: 1, duration: 1)
    ]
    #expect(SharedHistoryUpdate.fullRun(result, job: cached, green: all) == nil)
  }
}

@Suite struct GreenEntryTests {
  static func job(base: String, mergeBase: String?, given: Bool = false) -> TestJob {
    var changeSet = ChangeSet(
      base: ObjectID(hex: base), from: ObjectID(hex: mergeBase ?? base), mergeBase: mergeBase.map(ObjectID.init(hex:)),
      head: nil, changes: [ChangedFile(path: "Sources/A/a.swift", status: .modified)])
    changeSet.changesGiven = given
    let result = AffectedResult(targets: [], testTargets: [], runAll: false, runAllReasons: [])
    let report = AffectedReport(
      result: result, base: base, head: "worktree", mergeBase: mergeBase, changedFiles: changeSet.changes)
    var job = TestJob(
      selection: TestSelection(packages: []), options: TestRunOptions(repositoryRoot: "/r"), history: TimingHistory(),
      timingStore: TimingStore(path: "/r/t.json"), warnings: [], nothingMessage: "")
    job.affected = AffectedOutcome(changeSet: changeSet, result: result, report: report)
    return job
  }

  static let passed = TestRunResult(packages: [PackageResult(path: ".", status: .passed)], duration: 1)

  @Test func aGreenNamesTheCommitItsDiffStartedFromNotTheBaseBranchsTip() throws {
    // A pull request compared with main's tip: the diff ran from the merge-base, which is what must be green.
    let (tip, fork) = (String(repeating: "a", count: 40), String(repeating: "b", count: 40))
    let green = try #require(
      SharedHistoryUpdate.green(
        Self.passed, job: Self.job(base: tip, mergeBase: fork), commit: "c", branch: "feature/x", run: "r", at: now))
    #expect(green.base == fork && !green.all)
  }

  @Test func aRunOfAGivenChangeListOrOfPartOfTheSelectionIsNoGreen() {
    let tip = String(repeating: "a", count: 40)
    #expect(
      SharedHistoryUpdate.green(
        Self.passed, job: Self.job(base: tip, mergeBase: nil, given: true), commit: "c", branch: "b", run: "r", at: now)
        == nil)
    var restricted = Self.job(base: tip, mergeBase: nil)
    restricted.restricted = true
    #expect(SharedHistoryUpdate.green(Self.passed, job: restricted, commit: "c", branch: "b", run: "r", at: now) == nil)
    let failed = TestRunResult(packages: [PackageResult(path: ".", status: .failed)], duration: 1)
    #expect(
      SharedHistoryUpdate.green(
        failed, job: Self.job(base: tip, mergeBase: nil), commit: "c", branch: "b", run: "r", at: now)
        == nil)
  }
}

/// `--base auto`'s base branch (issue 49): a pull request's target, a CI push's own branch, else the
/// repository's default branch — never a local feature branch or a detached HEAD compared with itself.
@Suite struct AutoBaseBranchTests {
  @Test func aPullRequestComparesWithItsTarget() {
    let env = ["GITHUB_BASE_REF": "develop", "GITHUB_HEAD_REF": "feature/x"]
    #expect(Workspace.baseBranch(environment: env, branch: "feature/x", defaultBranch: "main") == "develop")
    #expect(
      Workspace.baseBranch(
        environment: ["BUILDKITE_PULL_REQUEST_BASE_BRANCH": "false", "BUILDKITE_BRANCH": "feature/x"],
        branch: "feature/x", defaultBranch: "main") == "feature/x", "a Buildkite push (no pull request)")
  }

  @Test func aCIPushOfABranchComparesWithItsOwnGreens() {
    #expect(
      Workspace.baseBranch(environment: ["GITHUB_REF_NAME": "release"], branch: "release", defaultBranch: "main")
        == "release")
    #expect(Workspace.baseBranch(environment: [:], branch: "main", defaultBranch: "main") == "main")
  }

  @Test func aLocalFeatureBranchOrADetachedHeadComparesWithTheDefaultBranch() {
    #expect(Workspace.baseBranch(environment: [:], branch: "feature/x", defaultBranch: "trunk") == "trunk")
    #expect(Workspace.baseBranch(environment: [:], branch: "(detached)", defaultBranch: "main") == "main")
    #expect(Workspace.baseBranch(environment: [:], branch: "(detached)", defaultBranch: nil) == "main")
  }
}
