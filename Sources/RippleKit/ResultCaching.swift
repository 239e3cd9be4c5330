import Affected
import Crypto
import Foundation
import Git
import PackageLoading
import PackageModel
import PassRecords
import ResultStore
import RippleConfig
import RippleCore
import TestRunner

/// How `ripple test` (or a rippled run) uses pass records: `--no-cache-results`, `--rerun-cached`, and
/// what the records it writes say about the run.
public struct ResultCacheUse: Sendable {
  /// False: neither read nor write records (`--no-cache-results`; `test.resultCache: off` also).
  public var enabled = true
  /// Run targets that have a trusted record anyway, and write records again (`--rerun-cached`).
  public var rerunCached = false
  /// What wrote the records, for people (`rippled run 42`); nil: the CI job's URL, else `ripple test on HOST`.
  public var runLabel: String?
  /// The branch the run belongs to; nil: `RIPPLE_BRANCH`, the CI's branch variable, else git's HEAD.
  public var branch: String?
  /// Set by rippled, whose operator decides instead of the branch's ripple.yml: the protected branches, the
  /// signing key (base64) and keys trusted besides `test.resultCache.publicKeys`.
  public var protectedBranches: [String]?
  public var signingKey: String?
  public var trustedKeys: [TrustedPublicKey] = []

  /// `RIPPLE_NO_CACHE_RESULTS=1`: `--no-cache-results` for every command of a job or a test suite (as
  /// `NX_SKIP_NX_CACHE` and `TURBO_FORCE` do).
  public static func disabled(by environment: [String: String]) -> Bool {
    guard let value = environment["RIPPLE_NO_CACHE_RESULTS"] else { return false }
    return !["", "0", "false", "no"].contains(value.lowercased())
  }

  public init(enabled: Bool = true, rerunCached: Bool = false, runLabel: String? = nil, branch: String? = nil) {
    self.enabled = enabled
    self.rerunCached = rerunCached
    self.runLabel = runLabel
    self.branch = branch
  }
}

/// One selected test target in one test run: what a key and a record are for.
public struct KeyedUnit: Sendable, Hashable {
  public var package: String
  public var target: String
  public var run: String?
  public var inputs: KeyInputs
  /// `inputs.key`, hashed once: the inputs of a large target are ~10⁵ lines.
  public let key: RecordKey
  /// Why this target cannot be keyed (a link leaving the repository, an unreadable file, a dirty
  /// submodule): never looked up, never recorded.
  public var blockers: [String] = []
  /// The key holds the tested package's pins, read again after the build (SwiftPM may have resolved them).
  public var pinned = false
  /// Why those pins are not known (no `Package.resolved` yet, an unreadable one).
  public var pinsProblem: String?
  /// The run's graph and closure files, shared with the other units: not part of its identity.
  var closures: KeyClosures?

  public init(
    package: String, target: String, run: String?, inputs: KeyInputs, blockers: [String] = [], pinned: Bool = false,
    pinsProblem: String? = nil
  ) {
    self.package = package
    self.target = target
    self.run = run
    self.inputs = inputs
    self.key = inputs.key
    self.blockers = blockers
    self.pinned = pinned
    self.pinsProblem = pinsProblem
  }

  public static func == (lhs: KeyedUnit, rhs: KeyedUnit) -> Bool {
    (lhs.package, lhs.target, lhs.run, lhs.key) == (rhs.package, rhs.target, rhs.run, rhs.key)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(package)
    hasher.combine(target)
    hasher.combine(run)
    hasher.combine(key)
  }

  /// The targets its build builds, whose nodes its key holds (`--explain-key` lists them). Found when asked:
  /// ~10² targets for each of 2,000 units, and only coverage and `--explain-key` ask.
  public var closure: Set<TargetRef> {
    closures.map { ContentKeys.closure(of: [TargetRef(package: package, name: target)], dependencies: $0.dependencies) }
      ?? []
  }

  /// The files of each target its build builds (path → `mode:id`).
  public var closureFiles: [[String: String]] {
    guard let closures else { return [] }
    return closure.compactMap { closures.files[$0] }
  }

  public var unit: String { "\(package):\(target)" }
  /// Why it is neither looked up nor recorded; empty: keyed.
  public var unkeyable: [String] { blockers + (pinsProblem.map { [$0] } ?? []) }
  public var isKeyable: Bool { unkeyable.isEmpty }

  /// The same unit with `pins` (read again after the build, which may have resolved them) in its key.
  func repinned(_ pins: ContentKeys.Pins) -> KeyedUnit {
    var inputs = KeyInputs(inputs.entries.filter { $0.kind != "pins" })
    let problem = ContentKeys.add(pins, package: package, to: &inputs)
    var unit = KeyedUnit(
      package: package, target: target, run: run, inputs: inputs, blockers: blockers, pinned: true,
      pinsProblem: problem)
    unit.closures = closures
    return unit
  }
}

extension TestSelection {
  /// The targets a run keys, by package: those run whole. A package run unfiltered (`runAll`, no target named), an
  /// Xcode run (its test plans and xcconfigs are not inputs yet) and a target split by suites across shards are
  /// not keyed.
  var keyedTargets: [(package: PackageSelection, targets: [String])] {
    packages.filter { !$0.runAll && $0.run?.xcodebuild == nil }.map { package in
      (package, package.testTargets.filter { package.suites[$0] == nil })
    }
  }
}

/// What the units of one run share to find their closures and closure files when asked.
final class KeyClosures: Sendable {
  let dependencies: [TargetRef: [TargetRef]]
  let files: [TargetRef: [String: String]]

  init(dependencies: [TargetRef: [TargetRef]], files: [TargetRef: [String: String]]) {
    self.dependencies = dependencies
    self.files = files
  }
}

/// The keys of a run's selected targets, with what `--explain-key` and coverage read beside them.
struct KeyedUnits: Sendable {
  var units: [KeyedUnit]
  /// Each closure target's files (path → `mode:id`).
  var files: [TargetRef: [String: String]]
  /// Each closure target's node: its lines and digest.
  var nodes: [TargetRef: ContentKeys.TargetNode]

  /// The units `keyedUnits` would make for `selection`, in its order, when every one of them is here (keys of a
  /// wider selection, made by the same run: the same inputs give the same key); nil when one is missing. The
  /// files and nodes are kept whole: they hold every closure target of the units taken.
  func restricted(to selection: TestSelection) -> KeyedUnits? {
    let byUnit = Dictionary(
      units.map { (UnitID(package: $0.package, target: $0.target, run: $0.run), $0) },
      uniquingKeysWith: { first, _ in first })
    var taken: [KeyedUnit] = []
    for (package, targets) in selection.keyedTargets {
      for name in targets {
        guard let unit = byUnit[UnitID(package: package.path, target: name, run: package.run?.name)] else {
          return nil
        }
        taken.append(unit)
      }
    }
    return KeyedUnits(units: taken, files: files, nodes: nodes)
  }

  private struct UnitID: Hashable {
    var package: String
    var target: String
    var run: String?
  }
}

/// The pass-record side of a planned run: the store, the trust rules, the keys of what will run, and how
/// records it writes are signed.
public struct PassRecording: Sendable {
  public var store: ResultStoreClient
  public var keys: [KeyedUnit]
  public var branch: String
  public var commit: String
  public var runLabel: String
  public var writer: String
  public var signingKey: Curve25519.Signing.PrivateKey?
  /// `--filter`-like arguments after `--`: the run proves only part of each target, so no record is written.
  public var userFiltered: Bool
  /// Whose records this run believes (also for the recorded coverage of targets it does not run).
  public var policy: TrustPolicy? = nil
  /// The store did not answer the lookup (or the shared history's read): its one warning was given, and no record
  /// is written after the run (each write would wait for the timeout and warn again).
  public var storeDown = false
  /// Each closure target's files (path → `mode:id`): what a key's `files` line digests, listed by
  /// `--explain-key`.
  public var targetFiles: [TargetRef: [String: String]] = [:]
  /// Each closure target's node (its lines and digest): what a key's `closure` line digests, listed by
  /// `--explain-key`.
  public var targetNodes: [TargetRef: ContentKeys.TargetNode] = [:]
}

extension Workspace {
  /// Whether this run reads and writes pass records at all.
  func usesPassRecords(_ request: TestRequest) -> Bool { usesResultStore(request.resultCache) }

  /// Looks up each target the plan would run (this shard's part, when sharding) in the result store, takes
  /// out those with a trusted record, and keeps what is needed to write records after the run. A store that
  /// is down or answers garbage is a warning, and the tests run.
  func applyPassRecords(to job: inout TestJob, request: TestRequest, graph: PackageGraph?) async {
    let settings = configuration.test.resultCache
    guard usesPassRecords(request), let graph,
      let access = job.sharedHistory?.access ?? resultStoreAccess(request.resultCache, warnings: &job.warnings)
    else { return }
    let store = access.store
    job.warnings += foldersThatDefeatKeys(settings)
    let effective = TestRunner.effectiveSelection(job.selection, options: job.options, history: job.history)
    let keyed: KeyedUnits
    do {
      if let known = job.suiteKeys?.restricted(to: effective) {
        keyed = known
      } else {
        keyed = try await keyedUnits(
          effective, graph: graph, extraArguments: request.extraArguments,
          edited: editedPaths(job.affected?.changeSet), warnings: &job.warnings)
      }
    } catch {
      job.warnings.append("pass records are off for this run: the content keys could not be computed: \(error)")
      return
    }
    let keys = keyed.units
    job.passRecording = PassRecording(
      store: store, keys: keys, branch: access.branch, commit: (try? repository.headCommit().hex) ?? "",
      runLabel: access.runLabel, writer: access.writer, signingKey: access.signingKey,
      userFiltered: request.extraArguments.contains { $0 == "--filter" || $0 == "--skip" || $0.hasPrefix("--filter=") })
    job.passRecording?.targetFiles = keyed.files
    job.passRecording?.targetNodes = keyed.nodes
    // The shard's part is fixed here, before anything is taken out: runners of one sharded job that see
    // different records must still split the same selection the same way.
    job.appliedShard = job.options.shard
    job.options.shard = nil
    job.selection = effective
    let policy = access.policy()
    job.passRecording?.policy = policy
    guard !request.resultCache.rerunCached else { return }

    job.warnings += Self.unkeyableWarnings(keys.filter { !$0.isKeyable })
    var cached: [KeyedUnit: CachedTarget] = [:]
    // One warning per store that is down: the shared history's read already said so for this store.
    var storeDown = job.sharedHistory?.storeAnswered == false
    var ignored: [(unit: KeyedUnit, reason: String)] = []
    for unit in keys where !storeDown && unit.isKeyable {
      do {
        guard let data = try await store.load(unit.key) else { continue }
        switch policy.judge(data, key: unit.key, unit: unit.unit) {
        case .trusted(let record, let signer):
          // `--coverage` skips a target only for a record that holds its coverage.
          if request.coverage != nil && record.coverage == nil { continue }
          cached[unit] = CachedTarget(
            package: unit.package, name: unit.target, run: unit.run, key: unit.key.hex, commit: record.commit,
            branch: record.branch, passedIn: record.run, time: record.time, signer: signer,
            tests: record.tests.count, duration: record.duration)
        case .ignored(let reason): ignored.append((unit, reason))
        }
      } catch {
        storeDown = true
        job.warnings.append("the result store could not be read (\(error)); the selected tests run")
      }
    }
    job.passRecording?.storeDown = storeDown
    let unsignedHint =
      access.isProtected && access.signingKey == nil
      ? "; to sign this branch's records, set \(settings.signingKeyVariable) on its jobs to a key from `ripple results "
        + "keygen --out FILE` and list its public half in test.resultCache.publicKeys (docs/CI.md, \"Signing\")" : ""
    job.warnings += Self.ignoredRecordWarnings(ignored, store: store.name, unsignedHint: unsignedHint)
    guard !cached.isEmpty else { return }
    job.cached = keys.compactMap { cached[$0] }
    var remaining = effective
    for index in remaining.packages.indices {
      let package = remaining.packages[index]
      remaining.packages[index].testTargets = package.testTargets.filter { name in
        !cached.keys.contains { $0.package == package.path && $0.target == name && $0.run == package.run?.name }
      }
    }
    remaining.packages.removeAll { !$0.hasWork }
    job.selection = remaining
  }

  /// Targets that cannot be keyed, one warning per reason (a package without `Package.resolved` is one line,
  /// not one per target): a single target is named, several are counted.
  static func unkeyableWarnings(_ units: [KeyedUnit]) -> [String] {
    var reasons: [String] = []
    var named: [String: [String]] = [:]
    for unit in units {
      let reason = unit.unkeyable.joined(separator: "; ")
      if named[reason] == nil { reasons.append(reason) }
      named[reason, default: []].append(unit.unit)
    }
    return reasons.map { reason in
      let list = named[reason]!
      guard list.count > 1 else { return "\(list[0]) is not looked up and will not be recorded: \(reason)" }
      let names = list.prefix(3).joined(separator: ", ") + (list.count > 3 ? " and \(list.count - 3) more" : "")
      return "\(list.count) test targets (\(names)) are not looked up and will not be recorded: \(reason)"
    }
  }

  /// The records a lookup ignored, one warning per reason: a single target is named with its key; several are
  /// counted (a protected branch without a key reads every unsigned record, and says so once, with how to sign).
  static func ignoredRecordWarnings(_ ignored: [(unit: KeyedUnit, reason: String)], store: String, unsignedHint: String)
    -> [String]
  {
    var reasons: [String] = []
    var units: [String: [KeyedUnit]] = [:]
    for entry in ignored {
      if units[entry.reason] == nil { reasons.append(entry.reason) }
      units[entry.reason, default: []].append(entry.unit)
    }
    return reasons.map { reason in
      let list = units[reason]!
      let hint = reason.hasPrefix("an unsigned pass record (") ? unsignedHint : ""
      guard list.count > 1 else {
        return "\(list[0].unit): ignored \(reason) at \(list[0].key.hex.prefix(12)) in \(store)\(hint)"
      }
      let names =
        list.prefix(3).map(\.unit).joined(separator: ", ") + (list.count > 3 ? " and \(list.count - 3) more" : "")
      return "ignored \(list.count) pass records in \(store), each \(reason) (\(names)); their tests run\(hint)"
    }
  }

  /// Ripple's cache folder or a local store inside the work tree and not ignored by git: its files are then
  /// unowned files of every key (`selection.unowned: all`), which change with every run, so no record ever
  /// matches. Said once per run, with the fix.
  func foldersThatDefeatKeys(_ settings: ResultCacheConfig) -> [String] {
    var folders: [String] = []
    if let manifests = services.manifestCache.directory { folders.append(RepoPath.parent(manifests)) }
    if case .local(let path?) = settings.store { folders.append(path) }
    let prefix = root.hasSuffix("/") ? root : root + "/"
    return folders.filter { $0.hasPrefix(prefix) }.compactMap { folder in
      let relative = String(folder.dropFirst(prefix.count))
      guard configuration.selection.unowned == .all, !repository.isIgnored(relative + "/") else { return nil }
      return "\(relative)/ (Ripple's cache or pass records) is inside the work tree and not ignored by git: its files "
        + "change every key, so no pass record will match; add `\(relative)/` to .gitignore"
    }
  }

  /// The key of every target `selection` runs whole (a `runAll` package has no targets named: not keyed).
  /// A target whose key cannot hold what its build reads is returned unkeyable, with why.
  func keyedUnits(
    _ selection: TestSelection, graph: PackageGraph, extraArguments: [String], edited: [String],
    warnings: inout [String]
  ) async throws -> KeyedUnits {
    let settings = configuration.test.resultCache
    var common = KeyInputs()
    common.add("toolchain", "swift --version", try await services.graphLoader.toolchainVersion())
    // What selects another compiler or SDK without changing `swift --version`'s answer.
    for (name, value) in services.environment where ManifestEnvironment.selectsToolchain(name) {
      common.add("toolchain-environment", name, value)
    }
    common.add("flags", "arguments", extraArguments.joined(separator: "\u{1F}"))
    for name in settings.keyEnvironment {
      if let value = services.environment[name] {
        common.add("environment", name, value)
      } else {
        common.add("environment", name, "(unset)")
        warnings.append("test.resultCache.keyEnvironment names \(name), which is not set: keyed as unset")
      }
    }
    let packages = selection.keyedTargets
    let refs = packages.flatMap { package, targets in targets.map { TargetRef(package: package.path, name: $0) } }
    let attribution = KeyAttribution(
      graph: graph, selection: configuration.selection, assets: configuration.assets,
      configPath: configuration.sourcePath.map { RepoPath.relative($0, to: root) })
    let disk = KeyInputsOnDisk(
      root: root, repository: repository, cacheFolder: services.manifestCache.directory.map { RepoPath.parent($0) },
      attribution: attribution)
    let dependencies = ContentKeys.forwardEdges(from: refs, in: graph)
    let closure = ContentKeys.closure(of: refs, dependencies: dependencies)
    // `RIPPLE_KEYS_BY_SCAN=1`: the reference scan of every file (the differential proof, `make key-proof`).
    let byScan = services.environment["RIPPLE_KEYS_BY_SCAN"] == "1"
    let scan = byScan ? try disk.scanned(closure: closure, edited: edited) : nil
    let (files, unkeyable, digests) =
      scan.map { ($0.files, $0.unkeyable, [:]) } ?? disk.targetFiles(of: closure, in: graph)
    var pins: [String: ContentKeys.Pins] = [:]
    for package in Set(refs.map(\.package)) { pins[package] = disk.pins(ofPackage: package) }
    // A variable a manifest reads that no entry sets: a build's evaluation sees this shell's value.
    let named = Set(configuration.selection.manifestEnvironments.flatMap(\.keys))
    var packageInputs: [String: KeyInputs] = [:]
    for (path, variables) in disk.manifestVariables(of: Set(closure.map(\.package)), in: graph, named: named) {
      var inputs = KeyInputs()
      for name in variables { inputs.add("manifest-environment", name, services.environment[name] ?? "(unset)") }
      packageInputs[path] = inputs
      let scrubbed = variables.filter { !ManifestEnvironment.isToolchainVariable($0) }
      warnings.append(
        "\(RepoPath.join(path, graph.package(at: path)?.manifestFile ?? "Package.swift")) reads "
          + variables.joined(separator: ", ")
          + ", which no selection.manifestEnvironments entry sets: a build evaluates it with this shell's values, "
          + "keyed as they are now"
          + (scrubbed.isEmpty
            ? "" : " (Ripple's own evaluation, for selection, runs without \(scrubbed.joined(separator: ", ")))")
          + "; name them in an entry to select on their changes")
    }
    let everyone = try scan?.everyone ?? disk.everyone(edited: edited)
    let context = ContentKeys.Context(
      targetFiles: files, fileDigests: digests, everyone: everyone, assets: configuration.assets, common: common,
      unkeyable: unkeyable, pins: pins, packageInputs: packageInputs)
    let (keys, nodes) = ContentKeys.graphKeys(for: refs, in: graph, context: context, dependencies: dependencies)
    let closures = KeyClosures(dependencies: dependencies, files: files)
    var units: [KeyedUnit] = []
    for (package, targets) in packages {
      var runInputs = KeyInputs()
      runInputs.add("run", "name", package.run?.name ?? TestConfig.name(of: [:]))
      for (name, value) in (package.run?.environment ?? [:]) {
        runInputs.add("run", "env " + name, value ?? "(removed)")
      }
      runInputs.add("run", "platform", Platform.host.rawValue)
      for name in targets {
        guard let key = keys[TargetRef(package: package.path, name: name)] else { continue }
        var unitInputs = key.inputs
        unitInputs.add(contentsOf: runInputs)
        var unit = KeyedUnit(
          package: package.path, target: name, run: package.run?.name, inputs: unitInputs, blockers: key.unkeyable,
          pinned: key.pinned, pinsProblem: key.pinsProblem)
        unit.closures = closures
        units.append(unit)
      }
    }
    return KeyedUnits(units: units, files: files, nodes: nodes)
  }

  /// The paths the run's comparison found changed in the working tree (against HEAD, through the base): the
  /// edits of global and unowned files a key holds beside HEAD's trees. None when the run compared commits
  /// (`--head`: what lies outside the closures' folders counts as committed) or was given its changes.
  func editedPaths(_ changeSet: ChangeSet?) -> [String] {
    guard let changeSet, changeSet.head == nil, !changeSet.changesGiven else { return [] }
    var paths = changeSet.changes.flatMap { [$0.path] + ($0.oldPath.map { [$0] } ?? []) }
    paths += changeSet.installedByBootstrap
    // A path committed since the base but put back in the working tree differs from HEAD too.
    if let head = try? repository.headCommit(), head != changeSet.from,
      let committed = try? repository.changes(from: changeSet.from, to: head)
    {
      paths += committed.flatMap { [$0.path] + ($0.oldPath.map { [$0] } ?? []) }
    }
    return paths
  }

  /// Writes a record for each keyed target that passed fully in `result`; failures are warnings. `tested`:
  /// HEAD's commit when the working tree is exactly it (`testedCommit(_:)`).
  func writePassRecords(
    _ recording: PassRecording, result: TestRunResult, job: TestJob, tested: String?,
    coverage: [KeyedUnit: RecordKey] = [:]
  ) async -> [String] {
    guard !recording.userFiltered, !result.cancelled else { return [] }
    // The tree tested is not the commit the run names (`--head REV` over another commit or an edited tree).
    if let named = job.affected?.changeSet.head, tested != named.hex {
      return [
        "no pass record is written: --head names \(named.short), but the tests build the working tree, which is "
          + "not that commit (check it out, with nothing edited, to record it)"
      ]
    }
    guard !recording.storeDown else { return [] }
    var warnings: [String] = []
    let now = Date()
    // The pins SwiftPM resolved for this build: what it built with, read after resolution.
    var pins: [String: ContentKeys.Pins] = [:]
    let keys = recording.keys.map { unit in
      guard unit.pinned else { return unit }
      if pins[unit.package] == nil { pins[unit.package] = KeyInputsOnDisk.pins(ofPackage: unit.package, root: root) }
      return unit.repinned(pins[unit.package]!)
    }
    packages: for package in result.packages {
      let planned = job.selection.packages.first { $0.path == package.path && $0.run?.name == package.run }
      for target in package.targets {
        guard
          let unit = keys.first(where: {
            $0.package == package.path && $0.target == target.name && $0.run == package.run
          }), unit.isKeyable,
          PassEligibility.isFullPass(
            target, in: package, splitBySuites: planned?.suites[target.name] != nil, userFiltered: false)
        else { continue }
        var tests: [String: Double] = [:]
        for test in target.tests { tests[test.qualifiedName] = test.duration }
        let record = PassRecord(
          key: unit.key, package: package.path, target: target.name, commit: recording.commit,
          branch: recording.branch, run: recording.runLabel, writer: recording.writer, time: now,
          duration: target.duration, tests: tests, coverage: coverage[unit])
        do {
          let data = try RecordEnvelope.seal(record, signingKey: recording.signingKey)
          // No write lowers trust: a signed record there is not replaced by this run's unsigned one.
          let rule = RecordReplacement(
            trusting: recording.policy?.trustedKeys.map(\.key) ?? [], protectedBranches: nil)
          if case .keep(let reason) = try await recording.store.save(unit.key, data, unlessLowering: rule) {
            warnings.append("the pass record of \(unit.unit) was not written to \(recording.store.name): \(reason)")
          }
        } catch {
          // One warning per store that is down, not one per package.
          warnings.append("the pass record of \(unit.unit) could not be written to \(recording.store.name): \(error)")
          break packages
        }
      }
    }
    return warnings
  }
}

extension TestJob {
  /// `ripple test --explain-key TARGET`: the key of each run of that selected target and every input line
  /// that went into it. `TARGET` is `package:Name` or a name unique among the keyed targets.
  public func explainKey(_ target: String) throws -> String {
    guard let recording = passRecording else { throw RippleKitError.passRecordsOff }
    let matches = recording.keys.filter { $0.unit == target || ($0.target == target && !target.contains(":")) }
    guard !matches.isEmpty else {
      throw RippleKitError.keyTargetNotSelected(target, known: Set(recording.keys.map(\.unit)).sorted())
    }
    let packages = Set(matches.map(\.package))
    if packages.count > 1 { throw RippleKitError.ambiguousTarget(target, candidates: matches.map(\.unit).sorted()) }
    return matches.map { unit in
      "\(unit.unit)\(unit.run.map { " [\($0)]" } ?? ""): key \(unit.key.hex)\n"
        + unit.unkeyable.map { "  not keyed (never looked up, never recorded): \($0)\n" }.joined()
        + unit.inputs.entries.map { "  \($0.kind)  \($0.name)  \($0.value)\n" }.joined()
        + unit.closure.sorted().map { explainNode($0, recording: recording) }.joined()
    }.joined(separator: "\n")
  }

  /// One closure target's node: its digest, then its lines, each `files` line followed by the files it digests.
  private func explainNode(_ target: TargetRef, recording: PassRecording) -> String {
    guard let node = recording.targetNodes[target] else { return "" }
    return "  node  \(target)  \(node.digest)\n"
      + node.inputs.entries.map { entry in
        "    \(entry.kind)  \(entry.name)  \(entry.value)\n"
          // A node's one `files` line is its own target's.
          + (entry.kind == "files"
            ? (recording.targetFiles[target] ?? [:]).sorted { $0.key < $1.key }
              .map { "      \($0.value)  \($0.key)\n" }.joined() : "")
      }.joined()
  }
}
