import ArgumentParser
import AssetFetch
import Assets
import Foundation
import RippleKit
import SystemClients

struct BootstrapCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bootstrap",
    abstract: "Install private assets (verified, cached, atomically), generated resources and secret files.",
    discussion: """
      Assets and secrets are configured under `assets:` and `secrets:` in ripple.yml, commands that \
      build resources under `generate:` (run in dependency order, installed like assets). Without access \
      (auto mode: no credentials, or the server refuses them), placeholders are installed (or a generate \
      entry's command runs instead of its private asset) so every target still builds; a broken source (not \
      found, unreachable, plain http, a missing file) fails its asset in every mode. State: \
      <repo>/.build/ripple (receipts, journal, lock); destinations may not reach into it or into \
      git's folders (.git, work tree and submodule git folders, the hooks path). Downloads: $RIPPLE_CACHE_DIR, else \
      $XDG_CACHE_HOME/ripple, else ~/.cache/ripple (~/Library/Caches/ripple on macOS).
      Exit status: 0 done, 1 a verification or transform failed, 2 config error (also an http:// source \
      without --allow-insecure-http, a missing file source), 3 environment error (missing tool, a source not \
      found or unreachable, no access with --require-private, not cached with --offline).
      """
  )

  @OptionGroup var repository: RepositoryOptions

  @Flag(name: .customLong("public"), help: "Install placeholders only, and secrets from their examples.")
  var publicOnly = false

  @Flag(help: "Fail (exit 3) when any asset cannot be fetched privately.")
  var requirePrivate = false

  @Flag(help: "Use only the download cache; list what is missing.")
  var offline = false

  @Flag(
    help: """
      Reinstall every asset, even up-to-date ones (the cached download is verified again, and fetched \
      again if it no longer matches), replacing locally edited or unmanaged files.
      """)
  var force = false

  @Option(help: "Assets processed at the same time.")
  var jobs = 4

  @Option(help: ArgumentHelp("Extra trusted CA certificates (PEM).", valueName: "PATH"))
  var caBundle: String?

  @Flag(name: .customLong("allow-insecure-http"), help: "Allow plain http:// sources.")
  var allowInsecureHTTP = false

  func validate() throws {
    if publicOnly && requirePrivate { throw ValidationError("--public and --require-private exclude each other.") }
    if jobs < 1 { throw ValidationError("--jobs must be at least 1 (got \(jobs)).") }
  }

  func run() async throws {
    let settings = BootstrapJob.Settings(
      mode: publicOnly ? .public : requirePrivate ? .requirePrivate : .auto, offline: offline, force: force,
      jobs: jobs, caBundlePath: caBundle, allowInsecureHTTP: allowInsecureHTTP)
    let output = LiveProgress(terminal: .standardError)
    let workspace = try repository.openWorkspace()
    // Not an error: the install still works, but every installed file would show up as a change.
    for folder in workspace.unignoredBootstrapFolders() {
      Terminal.standardError.write(
        "warning: \(folder.path) (\(folder.writer)) is not git-ignored: what bootstrap installs there shows up as "
          + "a change and widens every selection; add /\(folder.path)/ to .gitignore (or run `ripple init`)\n")
    }
    // Ctrl-C/SIGTERM cancel the run: commands and transforms run in process groups of their own (the
    // terminal's SIGINT does not reach them), and cancelling stops each group (ProcessClient.live).
    let task = Task {
      try await workspace.bootstrap(settings, makeFetcher: BootstrapJob.liveFetcher, onEvent: output.handle)
    }
    let signals = SignalCancellation.install { task.cancel() }
    defer { signals.uninstall() }
    let outcome = await task.result
    output.finish()
    let report = try outcome.get()
    if report.assets.isEmpty && report.secrets.isEmpty && report.generated.isEmpty {
      print("nothing to bootstrap: no `assets:`, `generate:` or `secrets:` in ripple.yml")
    } else if report.failures.isEmpty,
      report.assets.allSatisfy({ if case .upToDate = $0.status { true } else { false } }),
      report.generated.allSatisfy({ if case .upToDate = $0.status { true } else { false } }),
      report.secrets.allSatisfy({ $0.outcome == .unchanged })
    {
      print("up to date")
    }
    try report.check()
  }
}

/// Renders events to a terminal (live line) or plain lines, serialised behind a lock.
private final class LiveProgress: @unchecked Sendable {
  private let lock = NSLock()
  private let terminal: Terminal
  private var renderer: ProgressRenderer
  private let start = ContinuousClock.now

  init(terminal: Terminal) {
    self.terminal = terminal
    self.renderer = ProgressRenderer(interactive: terminal.isInteractive)
  }

  func handle(_ event: BootstrapEvent) {
    lock.withLock {
      let elapsed = ContinuousClock.now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      terminal.write(renderer.render(event, now: seconds))
    }
  }

  func finish() {
    if terminal.isInteractive { lock.withLock { terminal.write("\r\u{1B}[2K") } }
  }
}
