import Crypto
import Foundation
import Git
import PassRecords
import ResultStore
import RippleConfig
import RippleCore
import TestRunner

/// Who this run is to the result store: its branch, whether that branch is protected, the keys it trusts and
/// the one it signs with. Pass records and the shared history both judge and write by it.
struct ResultStoreAccess: Sendable {
  var store: ResultStoreClient
  var branch: String
  var isProtected: Bool
  var trusted: [(name: String, key: Curve25519.Signing.PublicKey)]
  /// Only a protected branch's run signs: a signature is what every branch believes.
  var signingKey: Curve25519.Signing.PrivateKey?
  var writer: String
  var runLabel: String
  /// `test.resultCache.unsignedRecords`.
  var unsignedFrom: UnsignedRecordSource = .privateStore

  func policy(now: Date = Date()) -> TrustPolicy {
    TrustPolicy(
      trustedKeys: trusted, branch: branch, branchIsProtected: isProtected, now: now,
      unsignedRefused: Self.unsignedRefused(store: store, unsignedFrom: unsignedFrom))
  }

  /// Why a branch's unsigned records are not believed from `store`; nil when they are: a store only this user
  /// writes, or any store where ripple.yml says `unsignedRecords: any`.
  static func unsignedRefused(store: ResultStoreClient, unsignedFrom: UnsignedRecordSource) -> String? {
    if store.writtenOnlyByThisUser || unsignedFrom == .anyStore { return nil }
    return "\(TerminalText.quoted(store.name)) is written by others too, and writing a store is not pushing a "
      + "branch: only signed records count there; `test.resultCache.unsignedRecords: any` believes them anyway"
  }
}

/// The team's history read from the store for this run, and where this run's part of it goes
/// (docs/DESIGN.md, "Shared history").
/// One read of the shared history's slots (a workspace keeps it: SharedHistory.swift, `loadSharedHistory`).
struct SharedHistoryRead: Sendable {
  var merged: HistoryRecord
  var warnings: [String]
  var storeAnswered: Bool
}

public struct SharedHistoryContext: Sendable {
  var access: ResultStoreAccess
  public var namespace: String
  /// The scopes read, the run's own last: `protected`, and `branch:<name>` for an unprotected branch.
  public var scopes: [String]
  /// Where this run writes; nil: nowhere (a protected branch's run without a signing key).
  public var writeScope: String?
  public var slot: Int
  /// Every trusted slot merged.
  public var merged: HistoryRecord
  /// Whether the store answered the read; false: its warning was given, and neither pass records nor the shared
  /// history are read from or written to it again this run.
  public var storeAnswered = true
  public var storeName: String { access.store.name }
}

extension Workspace {
  /// Whether the result store is in use at all: configured, not turned off for the run or the job.
  func usesResultStore(_ use: ResultCacheUse) -> Bool {
    use.enabled && configuration.test.resultCache.enabled && services.makeResultStore != nil
      && !ResultCacheUse.disabled(by: services.environment)
  }

  /// Ends the run (a usage error, exit 2) when the local store's folder is not the store's own (`/`, `$HOME`,
  /// the repository or inside it, a file, a folder of other files): before anything is written or deleted there.
  /// Any other store that cannot be made is a warning later (`resultStoreAccess`).
  func refuseForeignStoreFolder(_ use: ResultCacheUse) throws {
    guard usesResultStore(use), let makeStore = services.makeResultStore else { return }
    do {
      _ = try makeStore(configuration.test.resultCache, services.environment, root)
    } catch let error as any RippleError where error.category == .usage {
      throw error
    } catch {}
  }

  /// The store and this run's standing with it; nil (with a warning) when the store cannot be made.
  func resultStoreAccess(_ use: ResultCacheUse, warnings: inout [String]) -> ResultStoreAccess? {
    let settings = configuration.test.resultCache
    guard usesResultStore(use), let makeStore = services.makeResultStore else { return nil }
    let store: ResultStoreClient
    do {
      store = try makeStore(settings, services.environment, root)
    } catch {
      warnings.append("the result store is off for this run: \(error)")
      return nil
    }
    let environment = services.environment
    let branch = RunBranch.resolve(explicit: use.branch, environment: environment, repository: repository)
    // A branch the environment names (not rippled's, which knows its run) is never protected in a pull request.
    let pullRequest = use.branch == nil && RunBranch.isPullRequest(environment)
    let protectedBranches =
      use.protectedBranches ?? settings.protectedBranches ?? RunBranch.defaultProtectedBranches(repository)
    let namesProtected = BranchPattern.matches(branch, protectedBranches)
    let isProtected = namesProtected && !pullRequest
    var trusted: [(name: String, key: Curve25519.Signing.PublicKey)] = []
    for entry in use.trustedKeys + settings.publicKeys {
      if let key = SigningKeys.publicKey(base64: entry.base64) { trusted.append((entry.name, key)) }
    }
    var signingKey: Curve25519.Signing.PrivateKey?
    if let text = use.signingKey ?? environment[settings.signingKeyVariable], !text.isEmpty {
      switch SigningKeys.parsePrivateKey(text) {
      case .success(let key):
        if isProtected {
          signingKey = key
        } else if namesProtected {
          warnings.append(
            "\(settings.signingKeyVariable) is set, but this job runs for a pull request: its branch "
              + "\(TerminalText.quoted(branch)) is not protected here and its records are not signed")
        }
      case .failure(let problem):
        warnings.append(
          "\(settings.signingKeyVariable) is not a base64 Ed25519 private key (it \(problem)): records are not signed")
      }
    }
    let signer = signingKey.flatMap { key in
      trusted.first { $0.key.rawRepresentation == key.publicKey.rawRepresentation }?.name
    }
    let host = ProcessInfo.processInfo.hostName
    return ResultStoreAccess(
      store: store, branch: branch, isProtected: isProtected, trusted: trusted, signingKey: signingKey,
      writer: signer ?? "\(environment["USER"] ?? "unknown")@\(host)",
      runLabel: use.runLabel ?? RunBranch.jobURL(environment) ?? "ripple test on \(host)",
      unsignedFrom: settings.unsignedFrom)
  }

  /// The repository's name in the store: its `origin` URL without scheme, credentials or `.git`
  /// (`github.com/org/app`), so every clone of it, on any runner, shares one history; `local` without one.
  func historyNamespace() -> String {
    guard let url = try? repository.remoteURL(), !url.isEmpty else { return "local" }
    return HistoryNamespace.normalize(url)
  }

  /// Reads every slot of the scopes this run believes and merges the trusted ones. A store that is down, or
  /// a slot that is not believed, is a warning: the run plans on what it has. Read once per workspace for the
  /// same store, namespace, scopes and trust (`--base auto`, then the plan), with its warnings said each time.
  func loadSharedHistory(_ use: ResultCacheUse, slot: Int, warnings: inout [String]) async -> SharedHistoryContext? {
    guard let access = resultStoreAccess(use, warnings: &warnings) else { return nil }
    let namespace = historyNamespace()
    let own = HistoryRecord.scope(branch: access.branch, protected: access.isProtected)
    let scopes = access.isProtected ? [own] : ["protected", own]
    let writeScope = access.isProtected && access.signingKey == nil ? nil : own
    let trust = access.trusted.map { "\($0.name)=\($0.key.rawRepresentation.base64EncodedString())" }
    let memoKey = ([access.store.name, namespace, access.branch] + scopes + trust).joined(separator: "\u{1F}")
    let read: SharedHistoryRead
    if let known = sharedHistoryReads.withLock({ $0[memoKey] }) {
      read = known
    } else {
      read = await readSharedHistory(access, namespace: namespace, scopes: scopes, own: own)
      sharedHistoryReads.withLock { $0[memoKey] = read }
    }
    warnings += read.warnings
    var merged = read.merged
    merged.slot = slot
    // A store that did not answer is not asked again after the run (each call would wait for its timeout).
    return SharedHistoryContext(
      access: access, namespace: namespace, scopes: scopes, writeScope: read.storeAnswered ? writeScope : nil,
      slot: slot, merged: merged, storeAnswered: read.storeAnswered)
  }

  /// Every slot of `scopes`, the trusted ones merged (`loadSharedHistory`).
  private func readSharedHistory(_ access: ResultStoreAccess, namespace: String, scopes: [String], own: String) async
    -> SharedHistoryRead
  {
    var warnings: [String] = []
    let policy = access.policy()
    var merged = HistoryRecord(namespace: namespace, scope: own, slot: 0, writer: access.writer, time: Date())
    let reads = scopes.flatMap { scope in (0..<HistoryRecord.slots).map { (scope, $0) } }
    let store = access.store
    let loaded =
      (try? await Concurrently.map(reads, limit: 8) { read in
        await Self.loadSlot(store, HistoryRecord.key(namespace: namespace, scope: read.0, slot: read.1))
      }) ?? []
    var down: (any Error)?
    // Per slot, the sequence it holds (0: none readable): the marker of the write after it tells a replay.
    var held: [Int] = []
    for (read, outcome) in zip(reads, loaded) {
      switch outcome {
      case nil, .success(nil): held.append(0)
      case .failure(let error):
        down = down ?? error
        held.append(0)
      case .success(let data?):
        switch policy.judgeHistory(data, namespace: namespace, scope: read.0, slot: read.1) {
        case .trusted(let record, _):
          merged.merge(record)
          held.append(record.sequence)
        case .ignored(let reason):
          warnings.append("shared history: ignored \(reason) in \(read.0) slot \(read.1) of \(store.name)")
          held.append(0)
        }
      }
    }
    if down == nil {
      warnings += await Self.rolledBack(
        reads, held: held, store: store, namespace: namespace, policy: policy)
    }
    if let down {
      warnings.append(
        "the shared history could not be read from \(store.name) (\(down)); no pass record is read from or "
          + "written to it this run, the selected tests run, and shards are planned on this machine's history")
    }
    return SharedHistoryRead(merged: merged, warnings: warnings, storeAnswered: down == nil)
  }

  /// The slots whose history was rolled back (issue 48): a slot holding write n while the marker of write n+1
  /// exists was put back (a replay of an older, validly signed slot); a slot gone or unreadable while the marker
  /// of its first write exists was lost. Markers are judged like slots (signed where the slot must be), so a
  /// forged one proves nothing. One marker read per slot.
  static func rolledBack(
    _ reads: [(String, Int)], held: [Int], store: ResultStoreClient, namespace: String, policy: TrustPolicy
  ) async -> [String] {
    let probes = zip(reads, held).map { read, sequence in (read.0, read.1, sequence + 1) }
    let markers =
      (try? await Concurrently.map(probes, limit: 8) { probe in
        await loadSlot(
          store, HistoryRecord.markerKey(namespace: namespace, scope: probe.0, slot: probe.1, sequence: probe.2))
      }) ?? []
    var warnings: [String] = []
    for (probe, outcome) in zip(probes, markers) {
      guard case .success(let data?) = outcome,
        case .trusted(let marker, _) = policy.judgeHistory(data, namespace: namespace, scope: probe.0, slot: probe.1),
        marker.sequence == probe.2
      else { continue }
      let written =
        "write \(probe.2) by \(TerminalText.quoted(marker.writer)) at \(ISO8601DateFormatter().string(from: marker.time))"
      warnings.append(
        probe.2 == 1
          ? "shared history: \(probe.0) slot \(probe.1) of \(store.name) is gone or unreadable, but it was written "
            + "(\(written)): what it held is lost"
          : "shared history: \(probe.0) slot \(probe.1) of \(store.name) was rolled back to write \(probe.2 - 1), "
            + "but \(written) exists: a store writer put an older slot back, and what came after it is not read")
    }
    return warnings
  }

  /// The newest write of a slot its markers record (0: none), found by doubling then halving: the next write's
  /// number when the slot itself is gone or unreadable.
  static func newestMarker(
    store: ResultStoreClient, namespace: String, scope: String, slot: Int, policy: TrustPolicy
  ) async -> Int {
    func exists(_ sequence: Int) async -> Bool {
      let key = HistoryRecord.markerKey(namespace: namespace, scope: scope, slot: slot, sequence: sequence)
      guard case .success(let data?) = await loadSlot(store, key),
        case .trusted(let marker, _) = policy.judgeHistory(data, namespace: namespace, scope: scope, slot: slot)
      else { return false }
      return marker.sequence == sequence
    }
    guard await exists(1) else { return 0 }
    var (low, high) = (1, 2)
    while high < 1 << 30, await exists(high) { (low, high) = (high, high * 2) }
    while high - low > 1 {
      let middle = (low + high) / 2
      if await exists(middle) { low = middle } else { high = middle }
    }
    return low
  }

  /// One slot's bytes, the error kept as a value: no typed catch inside a task group (ARCHITECTURE, "House
  /// rules").
  static func loadSlot(_ store: ResultStoreClient, _ key: RecordKey) async -> Result<Data?, any Error> {
    do { return .success(try await store.load(key)) } catch { return .failure(error) }
  }

  /// Adds this run to its slot: read it again (another run may have written since), merge, bound, write.
  /// Failures are warnings: the history only ever costs balance, never a test.
  /// `tested`: HEAD's commit when the working tree is exactly it (`testedCommit(_:)`).
  func writeSharedHistory(
    _ context: SharedHistoryContext, result: TestRunResult, job: TestJob, tested: String?
  ) async -> [String] {
    guard let scope = context.writeScope, !result.cancelled else { return [] }
    let access = context.access
    let key = HistoryRecord.key(namespace: context.namespace, scope: scope, slot: context.slot)
    let now = Date()
    var record = HistoryRecord(
      namespace: context.namespace, scope: scope, slot: context.slot, writer: access.writer, time: now)
    do {
      let policy = access.policy(now: now)
      if let data = try await access.store.load(key),
        case .trusted(let old, _) = policy.judgeHistory(
          data, namespace: context.namespace, scope: scope, slot: context.slot)
      {
        record.merge(old)
        record.sequence = old.sequence + 1
      } else {
        // Gone or unreadable: the sequence goes on from the newest marker, never back to a number already used.
        record.sequence =
          await Self.newestMarker(
            store: access.store, namespace: context.namespace, scope: scope, slot: context.slot, policy: policy) + 1
      }
      let ran = TestRunner.effectiveSelection(job.selection, options: job.options, history: job.history)
      let green = SharedHistoryUpdate.green(
        result, job: job, commit: tested ?? "", branch: access.branch, run: access.runLabel, at: now)
      SharedHistoryUpdate.add(result, scopes: ran.suiteScopes, to: &record, at: now, green: green)
      if let green, let full = SharedHistoryUpdate.fullRun(result, job: job, green: green) {
        record.fullRuns.append(full)
      }
      record.writer = access.writer
      record.time = now
      record.bound(now: now)
      let rule = RecordReplacement(trusting: access.trusted.map(\.key), protectedBranches: nil)
      let data = try RecordEnvelope.seal(record, signingKey: access.signingKey)
      if case .keep(let reason) = try await access.store.save(key, data, unlessLowering: rule) {
        return ["the shared history was not written to \(access.store.name): \(reason)"]
      }
      // The write's marker, once: what lets a reader tell this slot put back to an older one.
      let markerKey = HistoryRecord.markerKey(
        namespace: context.namespace, scope: scope, slot: context.slot, sequence: record.sequence)
      _ = try await access.store.save(
        markerKey, try RecordEnvelope.seal(record.marker, signingKey: access.signingKey), unlessLowering: rule)
      return []
    } catch {
      return ["the shared history could not be written to \(access.store.name): \(error)"]
    }
  }
}

extension Workspace {
  /// The commit a run tested: `--head`, else HEAD's.
  func testedCommit(_ job: TestJob) -> String? {
    guard let head = try? repository.headCommit() else { return nil }
    // `--head REV` names what was compared; the tests always build the working tree.
    if let named = job.affected?.changeSet.head, named != head { return nil }
    // The run compared HEAD itself with the working tree: its own changes say whether the tree is HEAD.
    if let compared = job.affected?.changeSet, compared.head == nil, !compared.changesGiven, compared.from == head {
      return compared.changes.isEmpty ? head.hex : nil
    }
    return workingTreeIsClean() ? head.hex : nil
  }

  /// No edit, staged change or untracked file on top of HEAD (files bootstrap installed aside): only then did
  /// a run of the working tree test HEAD's commit.
  func workingTreeIsClean() -> Bool {
    guard let head = try? repository.headCommit() else { return false }
    let changes = try? ChangeDetection.detect(ChangeRequest(base: head.hex, noMergeBase: true), in: repository)
    return changes?.changes.isEmpty == true
  }
}

/// What one run adds to a history slot (pure).
enum SharedHistoryUpdate {
  static func add(
    _ result: TestRunResult, scopes: [String: SuiteScope], to record: inout HistoryRecord, at now: Date,
    green: HistoryRecord.Green?
  ) {
    var timings = record.timingHistory
    let before = timings
    timings.record(result, scopes: scopes)
    for package in result.packages {
      for target in package.targets where target.testCount > 0 {
        let unit = TestUnit(package: package.path, target: target.name)
        let seconds = timings.duration(of: unit)
        let suites = timings.suites[package.path]?[target.name] ?? [:]
        let tests = timings.tests[package.path]?[target.name] ?? [:]
        guard
          seconds != before.duration(of: unit) || suites != (before.suites[package.path]?[target.name] ?? [:])
            || tests != (before.tests[package.path]?[target.name] ?? [:])
        else { continue }
        record.targets[unit.id] = HistoryRecord.TargetTimes(seconds: seconds, suites: suites, tests: tests, time: now)
      }
    }
    let day = HistoryRecord.day(now)
    for package in result.packages {
      for target in package.targets {
        for test in target.tests where test.status != .skipped {
          let entry = HistoryRecord.Outcome(package: package.path, test: test.identifier(target: target.name))
          let notPassed = test.flaky || test.status == .failed || test.status == .quarantined
          // Tests that only ever passed are not kept: they are most of them, and say nothing of flakiness.
          guard notPassed || record.outcomes[entry.key] != nil else { continue }
          var outcome = record.outcomes[entry.key] ?? entry
          var counts = outcome.days[day] ?? HistoryRecord.Counts()
          counts.runs += 1
          if test.flaky {
            counts.flaky += 1
            outcome.flakyAt = Array((outcome.flakyAt + [now]).suffix(100))
          }
          if test.status == .failed { counts.failed += 1 }
          if test.status == .quarantined { counts.quarantined += 1 }
          outcome.days[day] = counts
          record.outcomes[entry.key] = outcome
        }
      }
    }
    if let green { record.greens.append(green) }
  }

  /// A green run of every test, unsharded, with nothing skipped for a pass record: the whole suite's cost.
  static func fullRun(_ result: TestRunResult, job: TestJob, green: HistoryRecord.Green) -> HistoryRecord.FullRun? {
    guard green.all, green.shard == nil, job.cached.isEmpty, !result.packages.isEmpty else { return nil }
    let clock = WallClock(result: result, fullSuiteSeconds: nil, measured: false)
    return HistoryRecord.FullRun(
      commit: green.commit, time: green.time, run: green.run, seconds: clock.seconds, buildSeconds: clock.buildSeconds)
  }

  /// The green entry of a run that passed and tested something or compared with a commit; nil otherwise.
  static func green(
    _ result: TestRunResult, job: TestJob, commit: String, branch: String, run: String, at now: Date
  ) -> HistoryRecord.Green? {
    // A run of some targets (`--targets`, a CI matrix job) says nothing of the commit as a whole.
    guard !commit.isEmpty, !result.cancelled, (try? result.check()) != nil, job.notRunHere.isEmpty, !job.restricted
    else { return nil }
    // A target skipped for a record of another commit was proven there, not here: a false hit would
    // otherwise become every later run's base.
    guard job.cached.allSatisfy({ $0.commit == commit }) else { return nil }
    let all = job.affected == nil || job.affected?.report.runAll == true
    // What the diff started from (the merge-base, not the base branch's tip): only that commit's being green
    // makes this one green. Changes another tool listed (`--changed-files`) start from no known commit.
    let changes = job.affected?.changeSet
    let base = changes?.changesGiven == true ? nil : changes?.from.hex
    guard all || base != nil else { return nil }
    return HistoryRecord.Green(
      commit: commit, branch: branch, time: now, run: run,
      shard: job.appliedShard.map(\.description) ?? result.shard?.description,
      all: all, base: all ? nil : base)
  }
}

extension HistoryRecord {
  /// The times as a `TimingHistory`, to merge under this machine's own.
  var timingHistory: TimingHistory {
    var timings = TimingHistory()
    for (unit, times) in targets {
      guard let ref = try? ShardEntry(parsing: unit) else { continue }
      if let seconds = times.seconds { timings.packages[ref.package, default: [:]][ref.target] = seconds }
      if !times.suites.isEmpty { timings.suites[ref.package, default: [:]][ref.target] = times.suites }
      if !times.tests.isEmpty { timings.tests[ref.package, default: [:]][ref.target] = times.tests }
    }
    return timings
  }

  /// The outcomes as an `OutcomeHistory`, for `ripple flaky`.
  var outcomeHistory: OutcomeHistory {
    var history = OutcomeHistory()
    for (key, outcome) in outcomes {
      var test = OutcomeHistory.Test(package: outcome.package, test: outcome.test)
      for (day, counts) in outcome.days {
        test.days[day] = OutcomeHistory.Day(
          runs: counts.runs, flaky: counts.flaky, failed: counts.failed, quarantined: counts.quarantined)
      }
      test.flakyAt = outcome.flakyAt
      history.tests[key] = test
    }
    return history
  }
}

extension TimingHistory {
  /// `shared` under this machine's history: what the team recorded wins for each target it knows (it is the
  /// newer view on a runner that starts empty), this machine's own fills the rest.
  public func overlaid(with shared: TimingHistory) -> TimingHistory {
    var out = self
    for (package, targets) in shared.packages {
      for (target, seconds) in targets { out.packages[package, default: [:]][target] = seconds }
    }
    for (package, targets) in shared.suites {
      for (target, suites) in targets { out.suites[package, default: [:]][target] = suites }
    }
    for (package, targets) in shared.tests {
      for (target, tests) in targets { out.tests[package, default: [:]][target] = tests }
    }
    return out
  }
}

/// What `ripple affected --format matrix` and `ripple flaky` read of the team's history.
public struct TeamHistory: Sendable {
  public var timings: TimingHistory
  public var outcomes: OutcomeHistory
  /// The store it came from, for messages.
  public var store: String
}

extension Workspace {
  /// The team's history in the result store, when one is configured and readable; warnings say why not.
  public func teamHistory(warnings: inout [String]) async -> TeamHistory? {
    guard let context = await loadSharedHistory(ResultCacheUse(), slot: 0, warnings: &warnings) else { return nil }
    return TeamHistory(
      timings: context.merged.timingHistory, outcomes: context.merged.outcomeHistory, store: context.storeName)
  }
}

extension OutcomeHistory {
  /// This machine's outcomes with the team's: per test and day the larger count of each (a run this machine
  /// shared is in both, and counts once).
  public func merged(with shared: OutcomeHistory) -> OutcomeHistory {
    var out = self
    for (key, theirs) in shared.tests {
      guard var mine = out.tests[key] else {
        out.tests[key] = theirs
        continue
      }
      for (day, counts) in theirs.days {
        let own = mine.days[day] ?? Day()
        mine.days[day] = Day(
          runs: max(own.runs, counts.runs), flaky: max(own.flaky, counts.flaky), failed: max(own.failed, counts.failed),
          quarantined: max(own.quarantined, counts.quarantined))
      }
      mine.flakyAt = Array(Set(mine.flakyAt + theirs.flakyAt)).sorted().suffix(OutcomeHistory.flakyMomentsKept)
      out.tests[key] = mine
    }
    return out
  }
}

extension TestJob {
  /// The run's wall-clock split, against the newest full run measured (the team's history or this machine's),
  /// else an estimate from the recorded test times of every target (`WallClock`).
  func wallClock(of result: TestRunResult) -> WallClock? {
    guard !result.nothingAffected || !cached.isEmpty else { return nil }
    let everything = ranEverything(result)
    var newest = history.fullRun
    if let shared = sharedHistory?.merged.fullRuns.last, shared.time > newest?.time ?? .distantPast {
      newest = MeasuredFullRun(
        seconds: shared.seconds, buildSeconds: shared.buildSeconds, time: shared.time, run: shared.run)
    }
    if let full = newest {
      return WallClock(
        result: result, fullSuiteSeconds: full.testSeconds, measured: true, at: full.time, by: full.run,
        ranEverything: everything)
    }
    let recorded = history.packages.values.flatMap(\.values).reduce(0, +)
    return WallClock(
      result: result, fullSuiteSeconds: recorded > 0 ? recorded : nil, measured: false, ranEverything: everything)
  }

  /// Every test target of the suite ran whole, here, with none cached and nothing split off: the run is the
  /// full suite's measure, on any branch.
  func ranEverything(_ result: TestRunResult) -> Bool {
    let all = affected == nil || affected?.report.runAll == true
    return all && cached.isEmpty && !restricted && notRunHere.isEmpty && appliedShard == nil && result.shard == nil
      && !result.packages.isEmpty && !result.cancelled
  }

}
