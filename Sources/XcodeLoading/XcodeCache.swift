import Foundation
import PackageLoading
import RippleCore
import XcodeModel

/// The resolved Xcode side of a tree on disk (docs/DESIGN.md, section 7), so that a warm run parses no
/// project: `snapshot-<key>.bin` in its own folder (`xcode/` beside the manifest cache's entries), keyed by
/// git's blob ids of every project file, workspace file and shared scheme read, and the repository root
/// (`<absolute>` paths depend on it). The entry also lists the test plans the schemes named, with their
/// blob ids: a plan that changed since is a miss. A snapshot with read failures is not stored (its errors
/// name the revision). A corrupt or truncated entry is a miss and is overwritten.
///
/// Layers follow the manifest cache's (rippled's branch scoping, docs/DESIGN.md section 7): with an
/// `overlay`, entries are read from it first, then from `directory`, and written to the overlay only.
public struct XcodeCache: Sendable {
  /// Nil: no cache. The shared layer.
  public let directory: String?
  /// The layer this cache writes, when it is not the shared one.
  public let overlay: String?

  static let format = "ripple-xcode-snapshot-2"

  /// The last snapshot decoded or stored in this process: base and head usually share one.
  private static let recent = Locked<(key: String, snapshot: XcodeSnapshot)?>(nil)

  public init(directory: String?, overlay: String? = nil) {
    self.directory = directory
    self.overlay = directory == nil ? nil : overlay
  }

  /// The Xcode cache inside the manifest cache's layers (`<manifests>/xcode`, `<overlay>/xcode`).
  public init(beside cache: ManifestCache) {
    self.init(directory: cache.directory.map { $0 + "/xcode" }, overlay: cache.overlay.map { $0 + "/xcode" })
  }

  /// A file a snapshot was read from and git's blob id of its bytes ("" when absent).
  public struct Input: Sendable, Hashable {
    public var path: String
    public var blobID: String
  }

  /// The key of a snapshot read from `inputs` (projects, workspaces and schemes) under `repositoryRoot`.
  static func key(inputs: [Input], repositoryRoot: String?) -> String {
    var text: [UInt8] = Array(format.utf8) + [0] + Array((repositoryRoot ?? "").utf8) + [0]
    for input in inputs.sorted(by: { $0.path < $1.path }) {
      text += Array(input.path.utf8) + [0] + Array(input.blobID.utf8) + [0]
    }
    return ManifestCache.gitBlobID(of: text)
  }

  /// The stored snapshot for `key` if every test plan it was read with still has the same blob id
  /// (`planID` gives the current one).
  func snapshot(forKey key: String, planID: (String) -> String) -> XcodeSnapshot? {
    if let recent = Self.recent.withLock({ $0 }), recent.key == key,
      recent.snapshot.planInputs.allSatisfy({ planID($0.path) == $0.blobID })
    {
      return recent.snapshot
    }
    // The overlay first; a damaged entry there falls back to the shared layer's.
    for folder in [overlay, directory].compactMap({ $0 }) {
      guard let (header, payload) = Self.readEntry(Self.path(folder, key)),
        let snapshot = Self.decode(header: header, payload: payload, planID: planID)
      else { continue }
      Self.recent.withLock { $0 = (key, snapshot) }
      return snapshot
    }
    return nil
  }

  /// The length of an entry's header line: the format, a space, a blob id (40 hex digits), a newline.
  static let headerLength = format.utf8.count + 42

  /// An entry's header line and payload, read straight into two arrays (a snapshot of a large project is
  /// over a megabyte: no `Data` and no copy of it to hash); nil when it cannot be read or is too short.
  static func readEntry(_ path: String) -> (header: [UInt8], payload: [UInt8])? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, Int(status.st_size) >= headerLength else { return nil }
    func readAll(_ count: Int) -> [UInt8]? {
      var complete = true
      let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        while initialized < count {
          let n = read(fd, buffer.baseAddress! + initialized, count - initialized)
          if n <= 0 {
            if n < 0 && errno == EINTR { continue }
            complete = false
            break
          }
          initialized += n
        }
      }
      return complete ? bytes : nil
    }
    guard let header = readAll(headerLength), let payload = readAll(Int(status.st_size) - headerLength) else {
      return nil
    }
    return (header, payload)
  }

  private static func decode(header: [UInt8], payload: [UInt8], planID: (String) -> String) -> XcodeSnapshot? {
    guard header.last == 10,
      String(decoding: header.dropLast(), as: UTF8.self) == format + " " + ManifestCache.gitBlobID(of: payload)
    else { return nil }
    var reader = ArchiveReader(bytes: payload[...])
    guard let plans = try? reader.strings(), plans.count % 2 == 0 else { return nil }
    for index in stride(from: 0, to: plans.count, by: 2) where planID(plans[index]) != plans[index + 1] {
      return nil
    }
    guard var snapshot = XcodeArchive.decode(payload[reader.index...]) else { return nil }
    snapshot.planInputs = stride(from: 0, to: plans.count, by: 2).map { Input(path: plans[$0], blobID: plans[$0 + 1]) }
    return snapshot
  }

  /// Drops the in-memory snapshot (tests, to read from disk).
  static func forgetRecent() { recent.withLock { $0 = nil } }

  func store(_ snapshot: XcodeSnapshot, forKey key: String) {
    Self.recent.withLock { $0 = (key, snapshot) }
    guard let folder = overlay ?? directory else { return }
    let path = Self.path(folder, key)
    var writer = ArchiveWriter()
    writer.strings(snapshot.planInputs.flatMap { [$0.path, $0.blobID] })
    let payload = writer.bytes + XcodeArchive.encode(snapshot)
    let header = Self.format + " " + ManifestCache.gitBlobID(of: payload) + "\n"
    Self.writeAtomically(Array(header.utf8) + payload, to: path)
  }

  private static func path(_ folder: String, _ key: String) -> String { folder + "/snapshot-" + key + ".bin" }

  /// A temporary file beside `path` renamed over it: readers never see half an entry. Errors only cost
  /// time on the next run.
  static func writeAtomically(_ bytes: [UInt8], to path: String) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".tmp-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: temporary)
      if rename(temporary.path, url.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
    }
  }
}
