import AssetFetch
import Assets
import ConfigLoading
import Foundation
import Git
import RippleConfig

/// `ripple bootstrap`: config + services → a `Bootstrapper` run.
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

    public init(
      mode: AccessMode = .auto, offline: Bool = false, force: Bool = false, jobs: Int = 4,
      caBundlePath: String? = nil, allowInsecureHTTP: Bool = false
    ) {
      self.mode = mode
      self.offline = offline
      self.force = force
      self.jobs = jobs
      self.caBundlePath = caBundlePath
      self.allowInsecureHTTP = allowInsecureHTTP
    }
  }

  /// Finds the repository from `directory`, reads its config, and runs the bootstrap.
  public static func run(
    directory: String, configPath: String?, settings: Settings, services: RippleServices,
    makeFetcher: FetcherFactory, onEvent: @escaping @Sendable (BootstrapEvent) -> Void
  ) async throws -> BootstrapReport {
    let repository = try GitRepository.discover(from: directory)
    guard let root = repository.workdir.map({ $0.hasSuffix("/") ? String($0.dropLast()) : $0 }) else {
      throw GitError.bareRepository(path: repository.gitDirectory, operation: "install assets")
    }
    let configuration = try ConfigLoader.load(repoRoot: root, explicitPath: configPath)
    let fetchOptions = FetchOptions(
      caBundlePath: settings.caBundlePath, allowInsecureHTTP: settings.allowInsecureHTTP,
      environment: services.environment, repositoryRoot: root)
    let bootstrapOptions = BootstrapOptions(
      repositoryRoot: root, mode: settings.mode, offline: settings.offline, force: settings.force,
      jobs: settings.jobs, environment: services.environment)
    return try await makeFetcher(fetchOptions).using { fetcher in
      try await Bootstrapper(options: bootstrapOptions, fetcher: fetcher, process: services.process, onEvent: onEvent)
        .run(configuration.assets)
    }
  }

  /// The real downloader: HTTPS, S3 and files.
  public static let liveFetcher: FetcherFactory = { Fetcher.live(options: $0) }
}
