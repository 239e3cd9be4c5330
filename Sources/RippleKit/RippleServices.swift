import Foundation
import PackageLoading
import SystemClients

/// The side effects a workspace needs, made once at an executable's wiring point (`.live`) or by a test.
public struct RippleServices: Sendable {
  public var process: ProcessClient
  public var environment: [String: String]
  /// A second cache layer, written instead of the shared one and read before it (`ManifestCache.overlay`):
  /// rippled's runs of branches that may not change what other branches read. Nil: one layer.
  public var manifestCacheOverlay: String?
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
      process: .live, environment: ProcessInfo.processInfo.environment,
      evaluationProgress: EvaluationProgress.terminal())
  }

  /// For tests: any subprocess fails, naming the command, so a test that reaches one by mistake says so.
  public static var failing: RippleServices {
    RippleServices(process: .failing, environment: [:])
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
