import Foundation
import RippleCore

/// A folder in TMPDIR that belongs to this test run (`<prefix>-<pid><suffix>`), such as the caches the integration
/// tests of one run share. Swift Testing has no hook at the end of a run to remove them, so the first use of a prefix
/// in a run removes the folders that ended runs left under it: their process is gone. A run still going (its pid
/// alive) keeps its folders. Without this, every `make test` left ~250 MB of caches in TMPDIR.
public enum RunFolder {
  /// Creates the folder when missing.
  public static func path(prefix: String, suffix: String = "") -> String {
    let temporary = FileManager.default.temporaryDirectory.path
    sweep(prefix: prefix, in: temporary)
    let path = temporary + "/\(prefix)-\(getpid())\(suffix)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  private static let swept = Locked<Set<String>>([])

  /// Removes `<prefix>-<pid>…` entries of `directory` whose process no longer exists, once per prefix and run.
  static func sweep(prefix: String, in directory: String) {
    guard swept.withLock({ $0.insert(prefix).inserted }) else { return }
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
      guard let pid = ownerPID(of: name, prefix: prefix), pid != getpid(), !isAlive(pid) else { continue }
      try? FileManager.default.removeItem(atPath: directory + "/" + name)
    }
  }

  /// The pid in `<prefix>-<pid>` or `<prefix>-<pid>-…`; nil for any other name.
  static func ownerPID(of name: String, prefix: String) -> Int32? {
    guard name.hasPrefix(prefix + "-") else { return nil }
    let digits = name.dropFirst(prefix.count + 1).prefix { $0.isASCII && $0.isNumber }
    let rest = name.dropFirst(prefix.count + 1 + digits.count)
    guard !digits.isEmpty, rest.isEmpty || rest.hasPrefix("-") else { return nil }
    return Int32(digits)
  }

  static func isAlive(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }
}
