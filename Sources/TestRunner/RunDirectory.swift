import Foundation

/// A folder private to one run, removed when the run ends (also on failure or cancellation).
///
/// `tmp/` is the TMPDIR of every `swift` process the run starts: SwiftPM leaves a
/// `TemporaryDirectory.*` folder and lock files named after the package path in TMPDIR on every run,
/// which would otherwise pile up in the user's. The xunit files go in the folder itself unless the
/// options name a work directory.
struct RunDirectory: Sendable, Hashable {
  /// Stands for the run's folder in `--dry-run` plans: its real name is only made when the run starts.
  static let placeholder = "<run directory>"

  let root: String
  /// The descriptor holding the exclusive lock on a checkout's folder (`forCheckout`), released by `remove()`.
  private(set) var lock: Int32?
  var temporary: String { root + "/tmp" }

  /// Where the xunit files of the run go.
  func xunitDirectory(_ options: TestRunOptions) -> String { options.workDirectory ?? root }

  /// Creates `<base>/ripple-test-<UUID>/tmp`, or `<base>/<name>/tmp` emptied first (`TestRunOptions.runFolderName`);
  /// `base` nil: this process's `$TMPDIR`.
  static func create(in base: String? = nil, named name: String? = nil) throws(TestRunnerError) -> RunDirectory {
    let run = RunDirectory(
      root: ((base ?? NSTemporaryDirectory()) as NSString).appendingPathComponent(
        name ?? "ripple-test-\(UUID().uuidString)"))
    if name != nil { run.remove() }
    do {
      try FileManager.default.createDirectory(atPath: run.temporary, withIntermediateDirectories: true)
    } catch {
      throw .workDirectory(path: run.root, reason: error.localizedDescription)
    }
    return run
  }

  /// `ripple test`'s folder: `<base>/ripple-test-<digest of identity>` (the checkout and its scratch path) while
  /// no other run holds it, so that every run of a checkout gives `swift` the same TMPDIR. SwiftPM's manifest
  /// cache key holds the environment: a new TMPDIR per run evaluated the manifest again in every `swift build`
  /// (a quarter of a second of a small package's incremental build; issue 50). A run that finds it held
  /// (`flock` on `<folder>.lock`, released when the run ends or dies) takes a unique folder instead.
  static func forCheckout(_ identity: String, in base: String? = nil) throws(TestRunnerError) -> RunDirectory {
    let name = "ripple-test-" + stableDigest(identity)
    let lockPath = ((base ?? NSTemporaryDirectory()) as NSString).appendingPathComponent(name + ".lock")
    // The lock file is removed when its run ends: a lock taken on a file removed meanwhile locks nothing, so
    // the file locked must still be the one of that name (else try again).
    for _ in 0..<3 {
      let descriptor = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { break }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        close(descriptor)
        break
      }
      var held = stat()
      var named = stat()
      guard fstat(descriptor, &held) == 0, stat(lockPath, &named) == 0, held.st_ino == named.st_ino,
        held.st_dev == named.st_dev
      else {
        close(descriptor)
        continue
      }
      do {
        var run = try create(in: base, named: name)
        run.lock = descriptor
        return run
      } catch {
        unlink(lockPath)
        close(descriptor)
        throw error
      }
    }
    return try create(in: base)
  }

  /// FNV-1a of `text`'s bytes, 16 hex digits: a name that is the same in every process (Hasher's is not).
  static func stableDigest(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: root)
    // Removed while still held (see `forCheckout`): nothing is left in TMPDIR.
    if let lock {
      unlink(root + ".lock")
      close(lock)
    }
  }
}
