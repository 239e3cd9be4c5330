import Crypto
import Foundation
import SystemClients

/// The Swift toolchain that evaluates manifests, and its identity for cache keys.
///
/// `swift --version` takes about 100 ms, too slow for a warm run, so its output is cached in the
/// manifest cache directory under the executable's path, size and modification time, and
/// only re-run when the executable changes.
struct Toolchain: Sendable {
  var process: ProcessClient
  var cache: ManifestCache
  var executable: String

  /// The path of the executable: `executable` itself when it has a `/`, else the first match on PATH.
  /// Symlinks are kept: `swift` is a link to `swift-driver`, which dispatches on the name it is run as.
  func resolvedExecutable() throws(PackageGraphError) -> String {
    let fileManager = FileManager.default
    var candidates: [String] = []
    if executable.contains("/") {
      candidates = [executable]
    } else {
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
      candidates = path.split(separator: ":").map { $0 + "/" + executable }
    }
    guard let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0) }) else {
      throw .swiftNotFound(executable: executable)
    }
    return found
  }

  /// The first lines of `swift --version` (version and target), from the cache when possible.
  func version() async throws(PackageGraphError) -> String {
    let path = try resolvedExecutable()
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let attributes = try? FileManager.default.attributesOfItem(atPath: target)
    let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
    let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    let identity = "\(path)\n\(target)\n\(size)\n\(modified)"
    let cacheName = "/toolchain-" + ManifestCache.hex(SHA256.hash(data: Array(identity.utf8))) + ".txt"
    for folder in cache.readDirectories {
      guard let data = FileManager.default.contents(atPath: folder + cacheName) else { continue }
      let text = String(decoding: data, as: UTF8.self)
      if ManifestSelection.swiftVersion(fromVersionOutput: text) != nil { return text }
    }
    let cacheFile = cache.writeDirectory.map { $0 + cacheName }
    let result: ProcessResult
    do {
      result = try await PrivateTemporaryDirectory.with { temporary in
        try await process.run(
          ProcessRequest(path, ["--version"], environment: ["TMPDIR": temporary], timeout: .seconds(60)))
      }
    } catch let error as ProcessError {
      if case .notFound = error { throw .swiftNotFound(executable: executable) }
      throw .toolchainUnusable(executable: path, message: error.description)
    } catch {
      throw .toolchainUnusable(executable: path, message: "\(error)")
    }
    let text = result.outputString.trimmingCharacters(in: .whitespacesAndNewlines)
    guard result.succeeded, ManifestSelection.swiftVersion(fromVersionOutput: text) != nil else {
      throw .toolchainUnusable(
        executable: path, message: "exit status \(result.exitStatus): \(text) \(result.errorString)")
    }
    if let cacheFile { ManifestCache.writeAtomically(Array(text.utf8), to: cacheFile) }
    return text
  }
}
