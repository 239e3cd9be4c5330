import AssetFetch
import Foundation
import RippleConfig
import RippleCore
import SystemClients

/// `ripple bootstrap`: validate everything, then per asset (in parallel, `jobs` at a time) cache or
/// fetch → verify → extract → transform → install; then the secret files.
///
/// Nothing is downloaded or written before every check that can fail without the network has passed:
/// config paths and symlinks, overlapping destinations, tools and their versions, access (in
/// `--require-private`), the cache (in `--offline`), and the secrets (git-ignored, values or example).
public struct Bootstrapper: Sendable {
  public var options: BootstrapOptions
  public var fetcher: Fetcher
  public var process: ProcessClient
  public var hooks: BootstrapHooks
  public var onEvent: @Sendable (BootstrapEvent) -> Void

  public init(
    options: BootstrapOptions, fetcher: Fetcher, process: ProcessClient, hooks: BootstrapHooks = .init(),
    onEvent: @escaping @Sendable (BootstrapEvent) -> Void = { _ in }
  ) {
    self.options = options
    self.fetcher = fetcher
    self.process = process
    self.hooks = hooks
    self.onEvent = onEvent
  }

  var state: RepositoryState { RepositoryState(repositoryRoot: options.repositoryRoot) }
  var cache: ContentCache { ContentCache(root: options.cacheRoot) }
  var git: GitQueries { GitQueries(process: process, repositoryRoot: options.repositoryRoot) }

  /// Runs the whole job. Per-asset failures are in the report (and thrown by `BootstrapReport.check`);
  /// a failed validation throws before anything is touched: no lock, no state folder, no download.
  public func run(_ config: AssetsConfig) async throws -> BootstrapReport {
    let onEvent = self.onEvent
    // An asset that is a `generate:` entry's private variant installs through that entry only.
    let variantsOf = Self.privateVariants(config)
    let plans = try await withLFSPointers(
      config.assets.filter { variantsOf[$0.id] == nil }.map { AssetPlan($0, state: state) })
    if let error = AssetsError.combine(
      PlanValidator.validate(
        plans, secrets: config.secrets, generate: config.generate, repositoryRoot: options.repositoryRoot,
        protected: try await protectedFolders()))
    {
      throw error
    }
    try checkGenerateInputs(config)
    let secrets = try await prepareSecrets(config.secrets)
    // Decided once before the lock, to check tools (and `--offline`, access) without writing anything;
    // again under the lock, where another run may have installed meanwhile. Access answers are reused.
    let access = AccessAnswers()
    try await checkTools(try await decide(plans, access: access))
    try await checkGenerate(config, access: access)

    let lock = try await FileLock.acquire(state.lockPath) { onEvent(.waitingForRepository(holder: $0)) }
    defer { lock.release() }
    let recovered = try Installer.recoverAll(state: state)
    for id in recovered { onEvent(.recovered(asset: id)) }
    let decisions = try await decide(plans, access: access)
    try await checkTools(decisions)
    let variants = try await checkGenerate(config, access: access)

    let reports = try await execute(decisions)
    let generated = await runGenerate(config, variants: variants, assetReports: reports)
    var secretOutcomes: [(id: String, outcome: SecretOutcome)] = []
    for secret in secrets {
      let changed = try SecretsWriter.write(secret.text, to: state.absolute(secret.spec.output))
      let outcome = changed ? secret.outcome : .unchanged
      secretOutcomes.append((secret.spec.id, outcome))
      onEvent(.secretWritten(id: secret.spec.id, outcome: outcome))
    }
    return BootstrapReport(assets: reports, secrets: secretOutcomes, recovered: recovered, generated: generated)
  }

  /// The variant of each `generate:` entry, with the tools it needs checked (a private variant's
  /// transform tools as for assets).
  @discardableResult
  private func checkGenerate(_ config: AssetsConfig, access: AccessAnswers) async throws -> [String: GenerateVariant] {
    let variants = try await decideGenerate(config, access: access)
    try checkGenerateTools(config, variants: variants)
    try await checkTools(
      variants.values.compactMap { variant -> Decision? in
        guard case .privateAsset(let plan) = variant else { return nil }
        return .install(plan, .private, reason: nil)
      })
    return variants
  }

  /// Folders git uses that the config cannot name lexically (the hooks path may be configured anywhere),
  /// and the download cache when it lies inside the repository.
  private func protectedFolders() async throws -> [ProtectedFolder] {
    var folders = try await git.gitFolders()
    folders.append(ProtectedFolder(path: options.cacheRoot + "/cas", what: "Ripple's download cache"))
    return folders
  }

  // MARK: - Decisions (before any download)

  enum Decision: Sendable {
    case upToDate(AssetPlan, InstallKind, edited: [String])
    case install(AssetPlan, InstallKind, reason: String?)
    /// Known to fail before anything is fetched (a broken source): reported, nothing touched.
    case failed(AssetPlan, AssetsError)
  }

  private func decide(_ plans: [AssetPlan], access: AccessAnswers) async throws -> [Decision] {
    var decisions: [Decision] = []
    var missing: [String] = []
    var errors: [AssetsError] = []
    for plan in plans {
      let receipt = state.loadReceipt(plan.spec.id)
      let current = { (kind: InstallKind) -> [String]? in
        if case .current(let edited) = UpToDateCheck.evaluate(
          receipt, fingerprint: plan.fingerprint(kind), state: state, force: options.force)
        {
          return edited
        }
        return nil
      }
      // Git LFS objects are public to whoever can clone: installed in every mode, from git-lfs's store.
      if plan.lfs != nil {
        decisions.append(
          current(.private).map { .upToDate(plan, .private, edited: $0) } ?? .install(plan, .private, reason: nil))
        continue
      }
      if options.mode == .public {
        decisions.append(
          current(.placeholder).map { .upToDate(plan, .placeholder, edited: $0) }
            ?? .install(plan, .placeholder, reason: nil))
        continue
      }
      if let edited = current(.private) {
        decisions.append(.upToDate(plan, .private, edited: edited))
        continue
      }
      if cache.contains(plan.spec.sha256) {
        decisions.append(.install(plan, .private, reason: nil))
        continue
      }
      if options.offline {
        missing.append("\(plan.spec.id): sha256 \(plan.spec.sha256) from \(plan.spec.originDescription)")
        continue
      }
      let (resolved, link, status) = await accessCheck(plan.spec, access: access)
      switch status {
      case .granted:
        var plan = plan
        plan.spec = resolved
        plan.link = link
        decisions.append(.install(plan, .private, reason: nil))
      case .broken(let error):
        // In every mode, placeholders up to date or not: a placeholder would hide the broken source.
        decisions.append(.failed(plan, .sourceBroken(error)))
      case .missingCredentials(let why), .denied(let why):
        if options.mode == .requirePrivate {
          errors.append(.accessRequired(asset: plan.spec.id, reason: why))
        } else if let edited = current(.placeholder) {
          decisions.append(.upToDate(plan, .placeholder, edited: edited))
        } else {
          decisions.append(.install(plan, .placeholder, reason: why))
        }
      }
    }
    if !missing.isEmpty { errors.insert(.missingFromCache(missing), at: 0) }
    if let error = AssetsError.combine(errors) { throw error }
    return decisions
  }

  /// Every transform tool of an asset about to be installed privately is on PATH and, when asked,
  /// reports the required version.
  private func checkTools(_ decisions: [Decision]) async throws {
    var errors: [AssetsError] = []
    for case .install(let plan, .private, _) in decisions {
      guard let transform = plan.spec.transform else { continue }
      guard ToolLocator.find(transform.command[0], path: options.environment["PATH"]) != nil else {
        errors.append(.missingTool(asset: plan.spec.id, tool: transform.command[0]))
        continue
      }
      guard let check = transform.requireVersion else { continue }
      let request = ProcessRequest(check.command[0], Array(check.command.dropFirst()), timeout: .seconds(30))
      let result: ProcessResult
      do {
        result = try await process.run(request)
      } catch {
        errors.append(.toolVersionCheckFailed(asset: plan.spec.id, command: request.commandLine, reason: "\(error)"))
        continue
      }
      if !result.succeeded {
        let tail = Self.tail(result.errorString)
        let reason = "it exited with status \(result.exitStatus)" + (tail.isEmpty ? "" : ":\n" + tail)
        errors.append(.toolVersionCheckFailed(asset: plan.spec.id, command: request.commandLine, reason: reason))
      } else if !(result.outputString + result.errorString).contains(check.contains) {
        errors.append(
          .toolVersionMismatch(asset: plan.spec.id, command: request.commandLine, expected: check.contains))
      }
    }
    if let error = AssetsError.combine(errors) { throw error }
  }

  private struct PreparedSecret: Sendable {
    var spec: SecretSpec
    var text: String
    var outcome: SecretOutcome
  }

  private func prepareSecrets(_ secrets: [SecretSpec]) async throws -> [PreparedSecret] {
    var prepared: [PreparedSecret] = []
    var errors: [AssetsError] = []
    for spec in secrets {
      do {
        guard try await git.isIgnored(spec.output) else {
          throw AssetsError.secretNotIgnored(secret: spec.id, output: spec.output)
        }
        let (text, outcome) = try SecretsWriter.contents(
          spec, mode: options.mode, environment: options.environment,
          readFile: { path in
            guard let data = FileManager.default.contents(atPath: state.absolute(path)) else {
              throw AssetsError.secretTemplate(secret: spec.id, reason: "`\(path)` cannot be read")
            }
            return String(decoding: data, as: UTF8.self)
          })
        prepared.append(PreparedSecret(spec: spec, text: text, outcome: outcome))
      } catch let error as AssetsError {
        errors.append(error)
      }
    }
    if let error = AssetsError.combine(errors) { throw error }
    return prepared
  }

  // MARK: - Execution

  private func execute(_ decisions: [Decision]) async throws -> [AssetReport] {
    let onEvent = onEvent
    return try await Concurrently.map(decisions, limit: options.jobs) {
      await self.handle($0)
    } onResult: { _, report in
      onEvent(.finished(report))
      return true
    }.compactMap { $0 }
  }

  private func handle(_ decision: Decision) async -> AssetReport {
    switch decision {
    case .upToDate(let plan, let kind, let edited):
      return AssetReport(id: plan.spec.id, status: .upToDate(kind), placeholderReason: nil, keptEdited: edited)
    case .failed(let plan, let error):
      return AssetReport(id: plan.spec.id, status: .failed(error), placeholderReason: nil, keptEdited: [])
    case .install(let plan, let kind, let reason):
      onEvent(.started(asset: plan.spec.id, kind: kind, reason: reason))
      do {
        let (outcome, downloaded) = try await install(plan, kind: kind)
        return AssetReport(
          id: plan.spec.id, status: .installed(kind, outcome, downloaded: downloaded), placeholderReason: reason,
          keptEdited: outcome.keptEdited)
      } catch {
        // A simulated crash leaves everything as `kill -9` would; the next run's recovery cleans up.
        if !(error is InstallInterrupted) {
          for staging in plan.stagings { try? FileIO.remove(staging) }
          try? FileIO.remove(state.workPath(plan.spec.id))
        }
        let failure =
          (error as? AssetsError) ?? .fileSystem(operation: "install", path: plan.spec.id, reason: "\(error)")
        return AssetReport(id: plan.spec.id, status: .failed(failure), placeholderReason: reason, keptEdited: [])
      }
    }
  }

  /// `receiptID`: the `generate:` entry a private variant installs for (default: the asset itself).
  func install(_ plan: AssetPlan, kind: InstallKind, receiptID: String? = nil) async throws -> (InstallOutcome, Bool) {
    for staging in plan.stagings {
      try FileIO.remove(staging)
      try FileIO.createDirectory(staging)
    }
    var downloaded = false
    switch kind {
    case .placeholder, .generated:  // `.generated` is a generate entry's kind (GenerateRunner), never an asset's
      for staging in plan.stagings {
        for placeholder in plan.spec.placeholders {
          let path = staging + "/" + placeholder.path
          try hooks.beforeWrite?(path)
          try FileIO.writeAtomically(Data(placeholder.contents.utf8), to: path)
        }
      }
    case .private where plan.lfs != nil:
      guard let pointers = plan.lfs, case .lfs(let source) = plan.spec.source else { break }
      try await materialise(plan) { work in
        try await self.copyLFS(pointers, source: source, assetID: plan.spec.id, into: work)
      }
    case .private:
      let onEvent = self.onEvent
      let id = plan.spec.id
      let (object, fetched) = try await cache.object(
        for: plan.spec, link: plan.link, fetcher: fetcher, verify: options.force,
        onWait: { onEvent(.waitingForDownload(asset: id, holder: $0)) },
        progress: { onEvent(.progress($0)) })
      downloaded = fetched
      try await materialise(plan) { work in try self.unpack(plan.spec, object: object, into: work) }
    }
    let staged = zip(plan.destinations, plan.stagings).map { destination, staging in
      StagedDestination(destination: destination, staging: staging, files: FileIO.listFiles(staging))
    }
    let tracked = try await git.trackedFiles(under: plan.destinations)
    let owner = receiptID ?? plan.spec.id
    let outcome = try Installer(state: state, hook: hooks.afterInstallStep).install(
      assetID: owner, owner: receiptID.map { .generateEntry($0) }, kind: kind, fingerprint: plan.fingerprint(kind),
      staged: staged,
      oldReceipt: state.loadReceipt(owner), gitTracked: tracked, force: options.force)
    return (outcome, downloaded)
  }

  /// The cached object → extracted (or copied) files, in `work`.
  private func unpack(_ spec: AssetSpec, object: String, into work: String) throws -> [String] {
    if let archive = spec.archive {
      return try ArchiveExtractor(assetID: spec.id, spec: archive, writeHook: hooks.beforeWrite).extract(
        object, into: work)
    }
    let name = spec.downloadedFileName
    try hooks.beforeWrite?(work + "/" + name)
    try copy(object, to: work + "/" + name)
    return [name]
  }

  /// The source's files (`produce` writes them into the folder it is given) → transformed files, in staging.
  private func materialise(_ plan: AssetPlan, produce: (String) async throws -> [String]) async throws {
    let spec = plan.spec
    let work = spec.transform == nil ? plan.stagings[0] : state.workPath(spec.id)
    if spec.transform != nil {
      try FileIO.remove(work)
      try FileIO.createDirectory(work)
    }
    defer { if spec.transform != nil { try? FileIO.remove(work) } }
    let files = try await produce(work)
    guard let transform = spec.transform else { return }
    let transformPlan = try TransformPlan.make(
      transform, assetID: spec.id, files: files, inputRoot: work, stagingRoots: plan.stagings)
    for file in transformPlan.passthrough {
      for staging in plan.stagings {
        try hooks.beforeWrite?(staging + "/" + file)
        try copy(work + "/" + file, to: staging + "/" + file)
      }
    }
    for (index, step) in transformPlan.steps.enumerated() {
      onEvent(.transforming(asset: spec.id, file: step.input, done: index, total: transformPlan.steps.count))
      let output = plan.stagings[step.variantIndex] + "/" + step.output
      try hooks.beforeWrite?(output)
      try FileIO.createDirectory(PathParts.parent(output))
      let request = ProcessRequest(step.argv[0], Array(step.argv.dropFirst()), workingDirectory: work)
      let result = try await process.run(request)
      guard result.succeeded, FileIO.exists(output) else {
        let tail = Self.tail(result.errorString)
        throw AssetsError.transformFailed(
          asset: spec.id, file: step.input, command: request.commandLine, status: result.exitStatus,
          stderrTail: result.succeeded ? "    (it did not write \(step.output))" : tail)
      }
      chmod(output, 0o644)
    }
  }

  /// A private copy (never a hard link: an edit in the repository must not change the cache).
  private func copy(_ from: String, to: String) throws {
    try FileIO.createDirectory(PathParts.parent(to))
    do {
      try FileManager.default.copyItem(atPath: from, toPath: to)
    } catch {
      throw AssetsError.fileSystem(operation: "copy \(from) to", path: to, reason: error.localizedDescription)
    }
    chmod(to, 0o644)
  }
}

/// Access checks already answered in this run, so deciding twice asks the server once per asset.
actor AccessAnswers {
  private var answers: [String: AccessStatus] = [:]
  private var urls: [RuntimeURL: Result<String, RuntimeURLResolver.Unavailable>] = [:]

  /// A run-time URL, resolved once (its command runs once) however many assets and decisions use it.
  func url(
    _ source: RuntimeURL, _ resolve: @Sendable () async -> Result<String, RuntimeURLResolver.Unavailable>
  ) async -> Result<String, RuntimeURLResolver.Unavailable> {
    if let known = urls[source] { return known }
    let result = await resolve()
    urls[source] = result
    return result
  }

  func answer(_ assetID: String, _ ask: @Sendable () async -> AccessStatus) async -> AccessStatus {
    if let known = answers[assetID] { return known }
    let status = await ask()
    answers[assetID] = status
    return status
  }
}

extension BootstrapReport {
  /// Throws the per-asset failures, if any (one error, or all of them).
  public func check() throws {
    if let error = AssetsError.combine(failures) { throw error }
  }
}
