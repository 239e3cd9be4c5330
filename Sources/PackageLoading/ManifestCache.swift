import Crypto
import Foundation

/// Evaluated manifests on disk, so that a warm run does not start `swift` at all.
///
/// An entry holds the normalised `dump-package` document of one manifest under one environment,
/// keyed by everything the evaluation depends on (see `key`). Each entry carries a checksum: a
/// corrupt or truncated entry is treated as missing and overwritten. Writes go to a temporary file
/// that is renamed into place, so readers never see half an entry. Failing to write the cache is not
/// an error: it only costs time on the next run.
///
/// Layers: with an `overlay`, entries are read from the overlay first and then from `directory` (the
/// shared layer), and written to the overlay only, so a run that must not change what others read (rippled:
/// a branch that is not protected) still profits from the shared entries (docs/DESIGN.md, section 7).
public struct ManifestCache: Sendable {
  /// Nil: no cache.
  public let directory: String?
  /// Nil: one layer, `directory` is read and written.
  public let overlay: String?

  /// Bump when the stored document or the key changes meaning.
  static let schemaVersion = "ripple-manifest-cache-4"

  public init(directory: String?, overlay: String? = nil) {
    self.directory = directory
    self.overlay = directory == nil ? nil : overlay
  }

  /// The folders entries are read from, the overlay first.
  var readDirectories: [String] { [overlay, directory].compactMap { $0 } }
  /// The folder entries are written to.
  var writeDirectory: String? { overlay ?? directory }

  /// The payload of the entry `name` (a file name) from the first layer that has a valid one.
  func readLayered(_ name: String, format: String) -> [UInt8]? {
    for folder in readDirectories {
      if let payload = Self.readEntry(at: folder + "/" + name, format: format) { return payload }
    }
    return nil
  }

  /// Stores the entry `name` in the layer this cache writes.
  func writeLayered(_ payload: [UInt8], _ name: String, format: String) {
    guard let folder = writeDirectory else { return }
    Self.writeEntry(payload, format: format, to: folder + "/" + name)
  }

  /// `$XDG_CACHE_HOME/ripple/manifests`, else `~/.cache/ripple/manifests`
  /// (macOS: `~/Library/Caches/ripple/manifests`).
  public static func defaultDirectory(environment: [String: String]) -> String {
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      return xdg + "/ripple/manifests"
    }
    let home = environment["HOME"] ?? NSHomeDirectory()
    #if os(macOS)
      return home + "/Library/Caches/ripple/manifests"
    #else
      return home + "/.cache/ripple/manifests"
    #endif
  }

  /// The key of one evaluation. `environment` maps the variables set to their values and the
  /// variables removed to nil. `rootName` is the checkout folder's name: a `.package(path:)` that reaches
  /// the root takes its identity from it, so the same bytes can evaluate differently in another clone.
  /// `manifestID` is git's blob id of the manifest's bytes (`gitBlobID(of:)`): git already hashed them,
  /// so a warm run keys a manifest without reading it, and the key is the same on every machine.
  static func key(
    manifestID: String, manifestFile: String, packagePath: String, rootName: String,
    environment: [String: String?], toolchain: String
  ) -> String {
    var hasher = SHA256()
    func add(_ field: String) {
      hasher.update(data: Array(field.utf8))
      hasher.update(data: [0])
    }
    add(schemaVersion)
    add(toolchain)
    add(packagePath)
    add(rootName)
    add(manifestFile)
    for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
      add(name)
      add(value.map { "=" + $0 } ?? "unset")
    }
    add(manifestID)
    return hex(hasher.finalize())
  }

  /// The key of one evaluation of `manifest`'s bytes (see `key(manifestID:…)`).
  static func key(
    manifest: [UInt8], manifestFile: String, packagePath: String, rootName: String,
    environment: [String: String?], toolchain: String
  ) -> String {
    key(
      manifestID: gitBlobID(of: manifest), manifestFile: manifestFile, packagePath: packagePath, rootName: rootName,
      environment: environment, toolchain: toolchain)
  }

  /// Git's id of a blob holding `bytes`: SHA-1 of `blob <count>\0` and the bytes, as `git hash-object`.
  public static func gitBlobID(of bytes: [UInt8]) -> String {
    var hasher = Insecure.SHA1()
    hasher.update(data: Array("blob \(bytes.count)".utf8) + [0])
    hasher.update(data: bytes)
    return hex(hasher.finalize())
  }

  /// The stored document for `key`, or nil when absent, unreadable or corrupt.
  func entry(forKey key: String) -> [UInt8]? {
    readLayered(key + ".json", format: Self.schemaVersion)
  }

  func store(_ payload: [UInt8], forKey key: String) {
    writeLayered(payload, key + ".json", format: Self.schemaVersion)
  }

  /// Where `store` writes the entry for `key`.
  func path(forKey key: String) -> String? {
    writeDirectory.map { $0 + "/" + key + ".json" }
  }

  /// Writes to a temporary file beside `path`, then renames it over `path`. Errors are ignored.
  static func writeAtomically(_ bytes: [UInt8], to path: String) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".tmp-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: temporary)
      if rename(temporary.path, url.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
    }
  }

  static func hex(_ digest: some Sequence<UInt8>) -> String {
    digest.map { byte in
      let text = String(byte, radix: 16)
      return text.count == 1 ? "0" + text : text
    }.joined()
  }
}
