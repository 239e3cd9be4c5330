import AssetFetch
import Foundation
import PackageLoading
import ResultStore
import RippleConfig
import SystemClients

/// The services bag: every outside effect a workspace (and rippled's executor) needs, made once at an
/// executable's wiring point (`.live`) or by a test (`.failing`, then the few clients the test scripts, e.g.
/// TestSupport's `ScriptedProcess`). Every `failing` client reports the test that reaches it and throws.
public struct RippleServices: Sendable {
  public var process: ProcessClient
  public var environment: [String: String]
  /// Makes the downloader for `bootstrap` (`BootstrapJob.liveFetcher`; `Fetcher.failing` in `.failing`).
  public var makeFetcher: BootstrapJob.FetcherFactory = BootstrapJob.liveFetcher
  /// The time: deadlines and schedules that tests move instead of sleeping.
  public var clock: ClockClient = .live
  /// A second cache layer, written instead of the shared one and read before it (`ManifestCache.overlay`):
  /// rippled's runs of branches that may not change what other branches read. Nil: one layer.
  public var manifestCacheOverlay: String?
  /// Opens the store pass records are kept in (`test.resultCache.store`) with the run's environment (its
  /// credentials) and the repository's work tree (a local store never keeps its records there); a throw turns
  /// pass records off for the run, with a warning, except a usage error (a local folder that is not the store's
  /// own), which ends `ripple test` (exit 2). Nil: this executable keeps no pass records.
  public var makeResultStore:
    (
      @Sendable (_ config: ResultCacheConfig, _ environment: [String: String], _ repositoryRoot: String) throws ->
        ResultStoreClient
    )?
  /// Told (evaluated, total) while manifests are evaluated (`GraphLoader.progress`).
  public var evaluationProgress: (@Sendable (Int, Int) -> Void)?

  public init(
    process: ProcessClient, environment: [String: String], evaluationProgress: (@Sendable (Int, Int) -> Void)? = nil
  ) {
    self.process = process
    self.environment = environment
    self.evaluationProgress = evaluationProgress
  }

  /// The CLI's: live processes, this process's environment, progress on a terminal.
  public static var live: RippleServices {
    RippleServices(
      process: ProcessClient.live.withholding(ChildEnvironment.defaultSecretNames),
      environment: ProcessInfo.processInfo.environment,
      evaluationProgress: EvaluationProgress.terminal())
  }

  /// For tests: any subprocess, download or look at the clock is a test issue naming the call, and throws.
  public static var failing: RippleServices {
    var services = RippleServices(process: .failing, environment: [:])
    services.makeFetcher = { _ in .failing }
    services.clock = .failing
    return services
  }

  /// `swift` on PATH, or `RIPPLE_SWIFT` (tests point it at a stand-in; a build box at a toolchain).
  public var swiftExecutable: String {
    if let swift = environment["RIPPLE_SWIFT"], !swift.isEmpty { return swift }
    return "swift"
  }

  /// The manifest cache shared by every run on this machine (`RIPPLE_CACHE_DIR` overrides it).
  public var manifestCache: ManifestCache {
    if let dir = environment["RIPPLE_CACHE_DIR"], !dir.isEmpty {
      return ManifestCache(directory: dir + "/manifests", overlay: manifestCacheOverlay)
    }
    return ManifestCache(
      directory: ManifestCache.defaultDirectory(environment: environment), overlay: manifestCacheOverlay)
  }

  public var graphLoader: GraphLoader {
    GraphLoader(process: process, cache: manifestCache, swiftExecutable: swiftExecutable, progress: evaluationProgress)
  }
}
