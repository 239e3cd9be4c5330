import AssetFetch
import Foundation
import RippleConfig
import RippleCore
import SystemClients

/// The content-addressed download cache shared by every repository on the machine.
///
/// Layout under `root`: `cas/sha256/ab/abcdef…` (verified objects, read-only by convention),
/// `cas/tmp/<sha>.partial` (downloads in progress, kept for resume), `cas/locks/<sha>.lock` (one per
/// object, so two processes never download the same object at once: the second waits and finds it).
public struct ContentCache: Sendable {
  public var root: String

  public init(root: String) {
    self.root = root
  }

  /// `RIPPLE_CACHE_DIR`, else `$XDG_CACHE_HOME/ripple`, else `~/Library/Caches/ripple` (macOS) or
  /// `~/.cache/ripple`.
  public static func defaultRoot(environment: [String: String]) -> String {
    if let dir = environment["RIPPLE_CACHE_DIR"], !dir.isEmpty { return dir }
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/ripple" }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    #if os(macOS)
      return home + "/Library/Caches/ripple"
    #else
      return home + "/.cache/ripple"
    #endif
  }

  public func objectPath(_ sha256: String) -> String {
    "\(root)/cas/sha256/\(sha256.prefix(2))/\(sha256)"
  }

  func partialPath(_ sha256: String) -> String { "\(root)/cas/tmp/\(sha256).partial" }
  func lockPath(_ sha256: String) -> String { "\(root)/cas/locks/\(sha256).lock" }

  public func contains(_ sha256: String) -> Bool { FileIO.exists(objectPath(sha256)) }

  /// The verified object for `asset`, downloading it first on a miss. A hit needs no network.
  ///
  /// The download goes to the partial file (resumed when one is there), is flushed, hashed and
  /// measured, then renamed into place; a mismatch deletes the partial and names expected, actual and
  /// the origin. A fetch error keeps the partial for the next run.
  ///
  /// `verify` (`--force`) re-hashes a cached object first; one that no longer matches is deleted and
  /// fetched again.
  /// `link`: where a run-time URL in `asset.source` came from (`FetchRequest.link`).
  func object(
    for asset: AssetSpec, link: String? = nil, fetcher: Fetcher, verify: Bool = false,
    onWait: @Sendable (String) -> Void,
    progress: @escaping @Sendable (FetchProgress) -> Void
  ) async throws -> (path: String, downloaded: Bool) {
    let object = objectPath(asset.sha256)
    if FileIO.exists(object) && !verify { return (object, false) }
    let lock = try await FileLock.acquire(lockPath(asset.sha256), onWait: onWait)
    defer { lock.release() }
    if FileIO.exists(object) {
      guard verify, (try? FileHasher.sha256(of: object).hex) != asset.sha256 else { return (object, false) }
      try FileIO.remove(object)
    }

    let partial = partialPath(asset.sha256)
    try FileIO.createDirectory(PathParts.parent(partial))
    var resumeFrom = FileIO.stamp(partial)?.size ?? 0
    if let size = asset.size, resumeFrom >= size {
      try FileIO.remove(partial)
      resumeFrom = 0
    }
    let request = FetchRequest(
      assetID: asset.id, source: asset.source, credentials: asset.credentials, expectedSize: asset.size,
      destination: partial, resumeFrom: resumeFrom, link: link)
    let result: FetchResult
    do {
      result = try await asset.fetch(request, with: fetcher, progress: progress)
    } catch let error as CancellationError {
      throw error
    } catch {
      throw AssetsError.fetchFailed(asset: asset.id, reason: "\(error)")
    }
    try FileIO.syncFile(partial)
    let (actual, size) = try FileHasher.sha256(of: partial)
    if let expected = asset.size, expected != size {
      try FileIO.remove(partial)
      throw AssetsError.sizeMismatch(asset: asset.id, expected: expected, actual: size, origin: result.origin)
    }
    guard actual == asset.sha256 else {
      try FileIO.remove(partial)
      throw AssetsError.checksumMismatch(
        asset: asset.id, expected: asset.sha256, actual: actual, origin: result.origin)
    }
    try FileIO.createDirectory(PathParts.parent(object))
    try FileIO.rename(partial, object)
    FileIO.syncDirectory(PathParts.parent(object))
    return (object, true)
  }
}

extension AssetSpec {
  fileprivate func fetch(
    _ request: FetchRequest, with fetcher: Fetcher, progress: @escaping @Sendable (FetchProgress) -> Void
  ) async throws -> FetchResult {
    try await fetcher.fetch(request, progress)
  }

  /// The request used for `checkAccess` (no file is written).
  func accessRequest(link: String? = nil) -> FetchRequest {
    FetchRequest(
      assetID: id, source: source, credentials: credentials, expectedSize: size, destination: "", link: link)
  }

  /// A printable description of where the asset comes from (no credentials).
  var originDescription: String {
    switch source {
    case .https(let urls): urls.first.map(Redaction.url) ?? "?"
    case .runtimeURL(let source): "the URL from \(source.description)"
    case .s3(let location): "s3://\(location.bucket)/\(location.key)"
    case .file(let path): path
    case .lfs(let source): "Git LFS (" + source.paths.map(\.pattern).joined(separator: ", ") + ")"
    }
  }

  /// The name of the downloaded file when it is not an archive: the last part of the URL, key or path.
  var downloadedFileName: String {
    let raw: String
    switch source {
    case .https(let urls): raw = Redaction.url(urls.first ?? "")
    case .runtimeURL: raw = ""
    case .s3(let location): raw = location.key
    case .file(let path): raw = path
    case .lfs: raw = ""
    }
    let name = raw.split(separator: "/").last.map(String.init) ?? ""
    let decoded = name.removingPercentEncoding ?? name
    return decoded.isEmpty || decoded == "." || decoded == ".." || decoded.contains("/") ? id : decoded
  }
}
