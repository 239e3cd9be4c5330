import Foundation

/// A TMPDIR for one child process, removed when it is done: the Swift driver and SwiftPM leave
/// `TemporaryDirectory.*` folders in the one they are given (`swift --version` included), which would
/// pile up in the user's.
public enum PrivateTemporaryDirectory {
  /// Runs `body` with the path of a new, empty folder, then removes the folder and whatever is in it.
  public static func with<T>(_ body: (String) async throws -> T) async rethrows -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-tmp-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try await body(folder)
  }
}
