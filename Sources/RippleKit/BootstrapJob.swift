import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore

/// `ripple bootstrap`: its settings and the fetcher it downloads with.
public enum BootstrapJob {
  /// Makes the fetcher for a run. Production passes `Fetcher.live(options:)`; tests their own.
  public typealias FetcherFactory = @Sendable (FetchOptions) -> Fetcher

  public struct Settings: Sendable {
    public var mode: AccessMode
    public var offline: Bool
    public var force: Bool
    public var jobs: Int
    public var caBundlePath: String?
    public var allowInsecureHTTP: Bool
    /// Which files `file` sources may name: anything for `ripple bootstrap`, confined in rippled.
    public var fileSources: FileSourceScope

    public init(
      mode: AccessMode = .auto, offline: Bool = false, force: Bool = false, jobs: Int = 4,
      caBundlePath: String? = nil, allowInsecureHTTP: Bool = false, fileSources: FileSourceScope = .anywhere
    ) {
      self.fileSources = fileSources
      self.mode = mode
      self.offline = offline
      self.force = force
      self.jobs = jobs
      self.caBundlePath = caBundlePath
      self.allowInsecureHTTP = allowInsecureHTTP
    }
  }

  /// The real downloader: HTTPS, S3 and files.
  public static let liveFetcher: FetcherFactory = { Fetcher.live(options: $0) }

  /// Bootstrap's events as sentences for rippled's run log, download progress at most every 10% or 10 s (a 3 GB
  /// copy logged per MiB made 3,000 lines; the events were Swift dumps).
  public static func runLog(_ say: @escaping @Sendable (String) -> Void) -> @Sendable (BootstrapEvent) -> Void {
    let renderer = Locked(ProgressRenderer(interactive: false, percentStep: 10, interval: 10))
    let start = ContinuousClock.now
    return { event in
      let elapsed = ContinuousClock.now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let text = renderer.withLock { $0.render(event, now: seconds) }
      for line in text.split(separator: "\n") { say("bootstrap: " + line) }
    }
  }
}

extension Workspace {
  /// `ripple bootstrap`: installs the configured assets and secrets into this checkout.
  public func bootstrap(
    _ settings: BootstrapJob.Settings, makeFetcher: BootstrapJob.FetcherFactory,
    onEvent: @escaping @Sendable (BootstrapEvent) -> Void
  ) async throws -> BootstrapReport {
    let fetchOptions = FetchOptions(
      caBundlePath: settings.caBundlePath, allowInsecureHTTP: settings.allowInsecureHTTP,
      environment: services.environment, repositoryRoot: root,
      fileSources: settings.fileSources)
    let bootstrapOptions = BootstrapOptions(
      repositoryRoot: root, mode: settings.mode, offline: settings.offline, force: settings.force,
      jobs: settings.jobs, environment: services.environment)
    return try await makeFetcher(fetchOptions).using { fetcher in
      try await Bootstrapper(options: bootstrapOptions, fetcher: fetcher, process: services.process, onEvent: onEvent)
        .run(configuration.assets)
    }
  }
}
