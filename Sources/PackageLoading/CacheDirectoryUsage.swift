import Foundation
import RippleCore

/// `ripple cache stats|prune`: the files of a cache directory, whatever they are named.
///
/// Works on every regular file below the directory (entries, the cached `swift --version`, leftover
/// temporary files), so it does not depend on the cache's entry format. Ages are modification times: an
/// entry is written once and not touched when read, so "older than" means "written before".
public struct CacheDirectoryUsage: Sendable, Hashable {
  public var files: Int
  public var bytes: Int64
  public var oldest: Date?
  public var newest: Date?

  public init(files: Int = 0, bytes: Int64 = 0, oldest: Date? = nil, newest: Date? = nil) {
    self.files = files
    self.bytes = bytes
    self.oldest = oldest
    self.newest = newest
  }

  /// Another directory's usage counted in.
  public mutating func add(_ other: CacheDirectoryUsage) {
    files += other.files
    bytes += other.bytes
    oldest = [oldest, other.oldest].compactMap { $0 }.min()
    newest = [newest, other.newest].compactMap { $0 }.max()
  }

  mutating func add(size: Int64, modified: Date) {
    files += 1
    bytes += size
    oldest = min(oldest ?? modified, modified)
    newest = max(newest ?? modified, modified)
  }

  /// What `directory` holds; a directory that does not exist holds nothing.
  public static func measure(_ directory: String) throws(CacheDirectoryError) -> CacheDirectoryUsage {
    var usage = CacheDirectoryUsage()
    for file in try files(in: directory) { usage.add(size: file.size, modified: file.modified) }
    return usage
  }

  /// Removes the files of `directory` written before `cutoff` (every file when nil) and returns what
  /// was removed. Another process may be writing meanwhile: a file already gone is not an error.
  public static func prune(_ directory: String, writtenBefore cutoff: Date?) throws(CacheDirectoryError)
    -> CacheDirectoryUsage
  {
    var removed = CacheDirectoryUsage()
    for file in try files(in: directory) where cutoff.map({ file.modified < $0 }) ?? true {
      do {
        try FileManager.default.removeItem(atPath: file.path)
      } catch {
        if FileManager.default.fileExists(atPath: file.path) {
          throw .cannotRemove(path: file.path, reason: error.localizedDescription)
        }
        continue
      }
      removed.add(size: file.size, modified: file.modified)
    }
    return removed
  }

  private struct File {
    var path: String
    var size: Int64
    var modified: Date
  }

  private static func files(in directory: String) throws(CacheDirectoryError) -> [File] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return [] }
    guard isDirectory.boolValue else { throw .notADirectory(path: directory) }
    guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
      throw .unreadable(path: directory)
    }
    var result: [File] = []
    while let relative = enumerator.nextObject() as? String {
      let path = directory + "/" + relative
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        attributes[.type] as? FileAttributeType == .typeRegular
      else { continue }
      result.append(
        File(
          path: path, size: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
          modified: attributes[.modificationDate] as? Date ?? .distantPast))
    }
    return result.sorted { $0.path < $1.path }
  }
}

/// A cache directory that cannot be read or cleaned.
public enum CacheDirectoryError: RippleError, Equatable {
  case notADirectory(path: String)
  case unreadable(path: String)
  case cannotRemove(path: String, reason: String)

  public var category: ErrorCategory { .environment }

  public var description: String {
    switch self {
    case .notADirectory(let path):
      "the cache path \(path) is not a directory: remove it, or point RIPPLE_CACHE_DIR elsewhere."
    case .unreadable(let path):
      "cannot read the cache directory \(path): check its permissions, or point RIPPLE_CACHE_DIR elsewhere."
    case .cannotRemove(let path, let reason):
      "cannot remove \(path) from the cache (\(reason)): check the directory's permissions."
    }
  }
}
