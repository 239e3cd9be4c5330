import AssetFetch
import Foundation
import RippleConfig
import RippleCore
import SystemClients

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a `generate:` entry is made in this run.
enum GenerateVariant: Sendable {
  /// Its command runs; `reason` says why its private asset is not used (nil without one).
  case command(reason: String?)
  /// Its private asset is installed in its place (with access, or cached).
  case privateAsset(AssetPlan)
}

/// The `generate:` half of `ripple bootstrap` (docs/DESIGN.md, section 4): before the lock, a variant per
/// entry, tools and inputs checked; after the assets, the entries in dependency order, independent ones
/// `jobs` at a time. Each entry's command writes into a fresh `$RIPPLE_OUTPUT_DIR`; what it wrote is
/// checked and installed with the asset `Installer` under the entry's id (receipt, journal, atomic swap).
extension Bootstrapper {
  /// Asset id → the entry it is the private variant of: such assets install only through their entry.
  static func privateVariants(_ config: AssetsConfig) -> [String: GenerateSpec] {
    var result: [String: GenerateSpec] = [:]
    for entry in config.generate { if let asset = entry.privateAsset { result[asset] = entry } }
    return result
  }

  // MARK: - Before the lock

  func decideGenerate(_ config: AssetsConfig, access: AccessAnswers) async throws -> [String: GenerateVariant] {
    let assets = Dictionary(config.assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    var variants: [String: GenerateVariant] = [:]
    var errors: [AssetsError] = []
    for entry in config.generate {
      guard let assetID = entry.privateAsset, let asset = assets[assetID] else {
        variants[entry.id] = .command(reason: nil)
        continue
      }
      let plan = AssetPlan(asset, state: state)
      if options.mode == .public {
        variants[entry.id] = .command(reason: "--public")
        continue
      }
      let receipt = state.loadReceipt(entry.id)
      if case .current = UpToDateCheck.evaluate(
        receipt, fingerprint: plan.fingerprint(.private), state: state, force: options.force)
      {
        variants[entry.id] = .privateAsset(plan)
        continue
      }
      if cache.contains(asset.sha256) {
        variants[entry.id] = .privateAsset(plan)
        continue
      }
      if options.offline {
        variants[entry.id] = .command(reason: "--offline: asset \(assetID) is not cached")
        continue
      }
      let (resolved, link, status) = await accessCheck(asset, access: access)
      switch status {
      case .granted:
        var plan = AssetPlan(resolved, state: state)
        plan.link = link
        variants[entry.id] = .privateAsset(plan)
      case .broken(let error):
        // Not "no access": the command must not stand in for a source that is wrong. Stops the run before
        // anything is installed, as a missing tool does.
        errors.append(.sourceBroken(error))
      case .missingCredentials(let why), .denied(let why):
        if options.mode == .requirePrivate {
          errors.append(.accessRequired(asset: assetID, reason: why))
        } else {
          variants[entry.id] = .command(reason: "no access to asset \(assetID): \(why)")
        }
      }
    }
    if let error = AssetsError.combine(errors) { throw error }
    return variants
  }

  /// Every command (and toolchain command) that will run is on PATH or a file of the repository.
  func checkGenerateTools(_ config: AssetsConfig, variants: [String: GenerateVariant]) throws {
    var errors: [AssetsError] = []
    for entry in config.generate {
      guard case .command = variants[entry.id] else { continue }
      for tool in [entry.command[0]] + (entry.toolchain.map { [$0[0]] } ?? []) where resolvedTool(tool) == nil {
        errors.append(.generateMissingTool(entry: entry.id, tool: tool))
      }
    }
    if let error = AssetsError.combine(errors) { throw error }
  }

  /// Each input glob matches a file now, or may match once an entry or asset it runs after (directly or
  /// not) is installed; every matched file stays inside the repository.
  func checkGenerateInputs(_ config: AssetsConfig) throws {
    var destinations: [String: [String]] = [:]
    for asset in config.assets { destinations[asset.id] = asset.installDestinations }
    for entry in config.generate { destinations[entry.id] = [entry.destination] }
    let after = Dictionary(config.generate.map { ($0.id, $0.after) }, uniquingKeysWith: { a, _ in a })
    var errors: [AssetsError] = []
    for entry in config.generate {
      var earlier: Set<String> = []
      var pending = entry.after
      while let id = pending.popLast() {
        if earlier.insert(id).inserted { pending += after[id] ?? [] }
      }
      let earlierFolders = earlier.flatMap { destinations[$0] ?? [] }
      for glob in entry.inputs {
        do {
          if try inputFiles(glob, entry: entry.id).isEmpty,
            !earlierFolders.contains(where: { InputMatcher.mayMatch(glob, under: $0) })
          {
            errors.append(.generateInputMatchedNothing(entry: entry.id, glob: glob.pattern))
          }
        } catch let error as AssetsError {
          errors.append(error)
        }
      }
    }
    if let error = AssetsError.combine(errors) { throw error }
  }

  /// The files `glob` matches, each checked to lie inside the repository (a symlink may lead out).
  private func inputFiles(_ glob: Glob, entry: String) throws -> [String] {
    let root = options.repositoryRoot
    let realRoot = PlanValidator.resolve(root) ?? root
    let files = InputMatcher.files(matching: glob, root: root)
    for file in files {
      let resolved = PlanValidator.resolve(root + "/" + file) ?? "(a broken symlink)"
      guard resolved.hasPrefix(realRoot + "/") else {
        throw AssetsError.generateInputOutsideRepository(entry: entry, path: file, resolved: resolved)
      }
    }
    return files
  }

  /// A command's executable: a name on PATH, an absolute path, or a path relative to the repository root.
  func resolvedTool(_ tool: String) -> String? {
    if tool.contains("/") && !tool.hasPrefix("/") {
      return ToolLocator.find(options.repositoryRoot + "/" + tool, path: nil)
    }
    return ToolLocator.find(tool, path: options.environment["PATH"])
  }

  // MARK: - Running

  /// Runs every entry once its `after` entries are installed, at most `jobs` at a time. An entry after a
  /// failed or skipped one (or a failed asset) is skipped and names it.
  func runGenerate(_ config: AssetsConfig, variants: [String: GenerateVariant], assetReports: [AssetReport]) async
    -> [GenerateReport]
  {
    guard case .success(let order) = GenerateOrder.sorted(config.generate) else { return [] }
    let specs = Dictionary(config.generate.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let owners = Self.privateVariants(config)
    let failedAssets = Set(
      assetReports.compactMap { if case .failed = $0.status { $0.id } else { nil } })
    // An `after` naming a private variant's asset waits for the entry that installs it.
    let dependencies = specs.mapValues { spec in spec.after.map { owners[$0]?.id ?? $0 } }
    let knownIDs = config.assets.map(\.id) + config.generate.map(\.id)
    let installs = Locked(())
    let onEvent = onEvent
    var results: [String: GenerateReport] = [:]
    var finished: [GenerateReport] = []
    var remaining = order
    var running = 0
    await withTaskGroup(of: GenerateReport.self) { group in
      while true {
        for id in remaining {
          let blocked = dependencies[id, default: []].filter {
            failedAssets.contains($0) || results[$0].map { !$0.succeeded } == true
          }
          if !blocked.isEmpty {
            let report = GenerateReport(id: id, status: .skipped(after: blocked))
            results[id] = report
            finished.append(report)
            remaining.removeAll { $0 == id }
            onEvent(.generateFinished(report))
            continue
          }
          let ready = dependencies[id, default: []].allSatisfy { specs[$0] == nil || results[$0] != nil }
          guard ready, running < options.jobs, let spec = specs[id] else { continue }
          let variant = variants[id] ?? .command(reason: nil)
          remaining.removeAll { $0 == id }
          running += 1
          group.addTask { await self.generate(spec, variant: variant, knownIDs: knownIDs, installs: installs) }
        }
        guard let report = await group.next() else { break }
        running -= 1
        results[report.id] = report
        finished.append(report)
        onEvent(.generateFinished(report))
      }
    }
    return finished
  }

  /// One entry, never throwing: a failure is its report.
  private func generate(
    _ spec: GenerateSpec, variant: GenerateVariant, knownIDs: [String], installs: Locked<Void>
  ) async -> GenerateReport {
    if Task.isCancelled { return GenerateReport(id: spec.id, status: .failed(.generateInterrupted(entry: spec.id))) }
    switch variant {
    case .privateAsset(let plan):
      if case .current = UpToDateCheck.evaluate(
        state.loadReceipt(spec.id), fingerprint: plan.fingerprint(.private), state: state, force: options.force)
      {
        return GenerateReport(id: spec.id, status: .upToDate(.private))
      }
      onEvent(.generateStarted(entry: spec.id, kind: .private, reason: nil))
      do {
        let (outcome, _) = try await install(plan, kind: .private, receiptID: spec.id)
        return GenerateReport(id: spec.id, status: .installed(.private, outcome))
      } catch {
        for staging in plan.stagings { try? FileIO.remove(staging) }
        try? FileIO.remove(state.workPath(plan.spec.id))
        let failure =
          (error as? AssetsError) ?? .fileSystem(operation: "install", path: plan.spec.id, reason: "\(error)")
        return GenerateReport(id: spec.id, status: .failed(failure))
      }
    case .command(let reason):
      let wrapper = state.stagingPath(destination: spec.destination, assetID: spec.id)
      defer { try? FileIO.remove(wrapper) }
      do {
        let status = try await runCommand(
          spec, reason: reason, wrapper: wrapper, knownIDs: knownIDs, installs: installs)
        return GenerateReport(id: spec.id, status: status, commandReason: reason)
      } catch {
        let failure =
          (error as? AssetsError) ?? .fileSystem(operation: "generate", path: spec.destination, reason: "\(error)")
        return GenerateReport(id: spec.id, status: .failed(failure), commandReason: reason)
      }
    }
  }

  private func runCommand(
    _ spec: GenerateSpec, reason: String?, wrapper: String, knownIDs: [String], installs: Locked<Void>
  ) async throws -> GenerateStatus {
    var inputs: [(path: String, sha256: String)] = []
    for glob in spec.inputs {
      let files = try inputFiles(glob, entry: spec.id)
      guard !files.isEmpty else { throw AssetsError.generateInputMatchedNothing(entry: spec.id, glob: glob.pattern) }
      for file in files { inputs.append((file, try FileHasher.sha256(of: state.absolute(file)).hex)) }
    }
    var environment: [String: String] = [:]
    for name in spec.environment { environment[name] = options.environment[name] }
    var toolchainOutput: String?
    if let toolchain = spec.toolchain { toolchainOutput = try await toolchainVersion(toolchain, entry: spec.id) }
    let fingerprint = GenerateKey.fingerprint(
      spec, inputs: inputs, environment: environment, toolchainOutput: toolchainOutput)
    if case .current = UpToDateCheck.evaluate(
      state.loadReceipt(spec.id), fingerprint: fingerprint, state: state, force: options.force)
    {
      return .upToDate(.generated)
    }

    onEvent(.generateStarted(entry: spec.id, kind: .generated, reason: reason))
    let output = wrapper + "/output"
    try FileIO.remove(wrapper)
    try FileIO.createDirectory(output)
    var variables: [String: String?] = ["RIPPLE_OUTPUT_DIR": output]
    for name in spec.environment { variables[name] = options.environment[name] }
    let shown = ProcessRequest(spec.command[0], Array(spec.command.dropFirst())).commandLine
    guard let tool = resolvedTool(spec.command[0]) else {
      throw AssetsError.generateMissingTool(entry: spec.id, tool: spec.command[0])
    }
    let result = try await runStopping(
      ProcessRequest(
        tool, Array(spec.command.dropFirst()), workingDirectory: options.repositoryRoot, environment: variables,
        timeout: spec.timeout),
      entry: spec.id, shown: shown)
    guard result.succeeded else {
      throw AssetsError.generateFailed(
        entry: spec.id, command: shown, status: result.exitStatus, stderrTail: Self.tail(result.errorString))
    }
    if let problem = OutputCheck.problems(wrapper: wrapper, output: output).first {
      throw AssetsError.generateOutputEscapes(entry: spec.id, path: problem.path, reason: problem.reason)
    }
    try OutputCheck.makePrivate(output)
    let files = FileIO.listFiles(output)
    let missing = OutputCheck.missing(spec.outputs, in: output)
    guard !files.isEmpty, missing.isEmpty else {
      throw AssetsError.generateOutputMissing(entry: spec.id, command: shown, missing: missing)
    }
    let tracked = try await git.trackedFiles(under: [spec.destination])
    let staged = [StagedDestination(destination: spec.destination, staging: output, files: files)]
    // One install at a time, so that two entries writing one file cannot both pass the check.
    return try installs.withLock { _ in
      try checkShared(spec, files: files, knownIDs: knownIDs)
      let outcome = try Installer(state: state, hook: hooks.afterInstallStep).install(
        assetID: spec.id, kind: .generated, fingerprint: fingerprint, staged: staged,
        oldReceipt: state.loadReceipt(spec.id), gitTracked: tracked, force: options.force)
      return .installed(.generated, outcome)
    }
  }

  /// Runs an entry's command; past its `timeout`, or on Ctrl-C/SIGTERM (the bootstrap task cancelled), the
  /// live client stops its whole process group, and the entry fails saying which.
  ///
  /// The live client sends the group SIGINT, and SIGTERM and SIGKILL seconds later; but a background job of
  /// a shell ignores SIGINT, and `ripple` may exit before the later signals. So once the command has
  /// returned, whatever is left of its group is stopped here (`GroupStopper`).
  private func runStopping(_ request: ProcessRequest, entry: String, shown: String) async throws -> ProcessResult {
    let groups = GroupStopper()
    let outer = ProcessClient.groupObserver
    let observer = ProcessGroupObserver(
      started: {
        groups.add($0); outer?.started($0)
      }, ended: { outer?.ended($0) })
    let result: ProcessResult
    do {
      result = try await ProcessClient.$groupObserver.withValue(observer) { try await process.run(request) }
    } catch let error as ProcessError {
      if case .timedOut = error {
        await groups.stop()
        throw AssetsError.generateTimedOut(entry: entry, command: shown, after: request.timeout ?? .zero)
      }
      throw error
    } catch {
      if Task.isCancelled {
        await groups.stop()
        throw AssetsError.generateInterrupted(entry: entry)
      }
      throw error
    }
    if Task.isCancelled {
      await groups.stop()
      throw AssetsError.generateInterrupted(entry: entry)
    }
    return result
  }

  /// No file of this entry is a file another entry's receipt owns.
  private func checkShared(_ spec: GenerateSpec, files: [String], knownIDs: [String]) throws {
    let mine = Set(files.map { spec.destination + "/" + $0 })
    for id in knownIDs where id != spec.id {
      guard let receipt = state.loadReceipt(id) else { continue }
      for (destination, owned) in receipt.destinations.sorted(by: { $0.key < $1.key }) {
        if let clash = owned.map({ destination + "/" + $0.path }).sorted().first(where: mine.contains) {
          throw AssetsError.sharedOutputFile(entry: spec.id, path: clash, owner: id)
        }
      }
    }
  }

  /// The toolchain command's output, part of the up-to-date key.
  private func toolchainVersion(_ argv: [String], entry: String) async throws -> String {
    guard let tool = resolvedTool(argv[0]) else { throw AssetsError.generateMissingTool(entry: entry, tool: argv[0]) }
    let result = try await process.run(
      ProcessRequest(tool, Array(argv.dropFirst()), workingDirectory: options.repositoryRoot, timeout: .seconds(30)))
    guard result.succeeded else {
      throw AssetsError.generateFailed(
        entry: entry, command: ProcessRequest(argv[0], Array(argv.dropFirst())).commandLine,
        status: result.exitStatus, stderrTail: Self.tail(result.errorString))
    }
    return (result.outputString + result.errorString).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  static func tail(_ text: String) -> String {
    text.split(separator: "\n").suffix(15).map { "    " + $0 }.joined(separator: "\n")
  }
}

/// The process groups a command started, stopped on timeout or interruption: SIGTERM, then SIGKILL to
/// whatever is left after two seconds. Each command leads a session; the groups its processes lead in it
/// (`swift run` starts the tool in one of its own) are stopped too (`ProcessTable`).
final class GroupStopper: @unchecked Sendable {
  private let lock = NSLock()
  private var groups: [pid_t] = []

  func add(_ group: pid_t) { lock.withLock { groups.append(group) } }

  func stop() async {
    let recorded = lock.withLock { self.groups }
    let groups = ProcessTable.groups(
      reachedFrom: Set(recorded), user: getuid(), in: ProcessTable.current(), excluding: getpgrp()
    ).sorted()
    for group in groups { _ = kill(-group, SIGTERM) }
    let deadline = ContinuousClock.now + .seconds(2)
    // `kill(-group, 0)` fails (ESRCH) once no process of the group is left.
    while groups.contains(where: { kill(-$0, 0) == 0 }) && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(50))
    }
    for group in groups { _ = kill(-group, SIGKILL) }
  }
}
