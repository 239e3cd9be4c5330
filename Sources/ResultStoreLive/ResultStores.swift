import Foundation
import ResultStore
import RippleConfig
import RippleCore

/// The live stores behind `ResultStoreClient`: a local folder, rippled's record API, an S3 bucket, and Bazel's
/// HTTP remote cache protocol (bazel-remote, nginx with WebDAV). docs/DESIGN.md, "test.resultCache".
public enum ResultStores {
  /// The client for `spec`.
  ///
  /// - `config` gives the local folder's bound (`maxSize`) and the shared stores' per-call `timeout`.
  /// - `environment` holds the credentials the spec names (a token, AWS keys, `NETRC`, `HOME`); they are read
  ///   once, here, and never appear in the client's `name` or in any error.
  /// - `cacheDirectory` is Ripple's cache folder (`defaultCacheDirectory(environment:)`); a `.local(path: nil)`
  ///   store keeps its records in `<cacheDirectory>/results`.
  ///
  /// - `repositoryRoot` is the work tree the run is in: a local store is never it, above it, or (a configured
  ///   folder, not the default one in Ripple's cache folder) inside it.
  ///
  /// Throws `ResultStoreSetupError` when the spec cannot make a store (an unset credential variable, a URL
  /// that is not http(s), AWS keys for a Bazel cache): the caller warns and runs the tests without it. A local
  /// folder that is not the store's own (`/`, `$HOME`, the repository, a file, a folder of other files) is
  /// refused with `refusesFolder` set: a usage error (exit 2) before anything is written or deleted.
  public static func make(
    _ spec: ResultStoreSpec, config: ResultCacheConfig, environment: [String: String], cacheDirectory: String,
    repositoryRoot: String? = nil
  ) throws(ResultStoreSetupError) -> ResultStoreClient {
    switch spec {
    case .local(let path):
      let folder = path ?? defaultLocalFolder(cacheDirectory: cacheDirectory)
      if let refusal = LocalStoreFolder.refusal(
        folder, repositoryRoot: repositoryRoot, home: environment["HOME"] ?? NSHomeDirectory(),
        insideRepository: path == nil)
      {
        throw ResultStoreSetupError(
          store: folder,
          message: "refusing \(folder) as the local store's folder: \(refusal). A local store keeps its records in a "
            + "folder of its own, outside the repository (test.resultCache.store), and marks it with "
            + "\(LocalFolderStore.markerName)",
          refusesFolder: true)
      }
      return LocalFolderStore(folder: folder, maxSize: config.maxSize).client
    case .rippled(let url, let tokenVariable):
      return try RippledStore.make(
        url: url, tokenVariable: tokenVariable, timeout: config.timeout, environment: environment)
    case .s3(let location, let credentials):
      return try S3Store.make(
        location: location, credentials: credentials, timeout: config.timeout, environment: environment)
    case .bazelHTTP(let url, let credentials):
      return try BazelHTTPStore.make(
        url: url, credentials: credentials, timeout: config.timeout, environment: environment)
    }
  }

  /// The client for `config.store`, with `config`'s bound and timeout: `make(config.store, config: config, …)`.
  public static func make(
    _ config: ResultCacheConfig, environment: [String: String], cacheDirectory: String, repositoryRoot: String? = nil
  ) throws(ResultStoreSetupError) -> ResultStoreClient {
    try make(
      config.store, config: config, environment: environment, cacheDirectory: cacheDirectory,
      repositoryRoot: repositoryRoot)
  }

  /// Ripple's cache folder, the one its manifest cache lives in: `RIPPLE_CACHE_DIR`, else
  /// `$XDG_CACHE_HOME/ripple`, else `~/Library/Caches/ripple` (macOS) or `~/.cache/ripple`.
  public static func defaultCacheDirectory(environment: [String: String]) -> String {
    if let directory = environment["RIPPLE_CACHE_DIR"], !directory.isEmpty { return directory }
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/ripple" }
    let home = environment["HOME"] ?? NSHomeDirectory()
    #if os(macOS)
      return home + "/Library/Caches/ripple"
    #else
      return home + "/.cache/ripple"
    #endif
  }

  /// `<cacheDirectory>/results`: the local store's folder when the config names none.
  public static func defaultLocalFolder(cacheDirectory: String) -> String { cacheDirectory + "/results" }
}

/// A store that could not be made from its spec; `description` names the store (never a credential) and says
/// what to fix.
public struct ResultStoreSetupError: RippleError, Equatable {
  public var store: String
  public var message: String
  /// A local folder that is not the store's own: the run stops (a usage error, exit 2) rather than warn.
  public var refusesFolder: Bool

  public init(store: String, message: String, refusesFolder: Bool = false) {
    self.store = store
    self.message = message
    self.refusesFolder = refusesFolder
  }

  public var category: ErrorCategory { refusesFolder ? .usage : .environment }
  public var description: String { "result store \(store): \(message)" }
}
