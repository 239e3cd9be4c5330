import Foundation
import RippleCore

/// A run's log on disk, capped: once `limit` bytes are written, one last line says the rest was cut.
/// Write failures (disk full, folder gone or unwritable) never fail the run: they are reported once through
/// `onFailure` and the log stops.
final class RunLogFile: Sendable {
  let path: String
  private struct State {
    var handle: FileHandle?
    var written = 0
    var truncated = false
    var failed = false
  }
  private let state: Locked<State>
  private let limit: Int
  private let onFailure: @Sendable (String) -> Void

  /// Creates (truncates) the file; throws when it cannot be created.
  init(path: String, limit: Int, onFailure: @escaping @Sendable (String) -> Void) throws {
    self.path = path
    self.limit = limit
    self.onFailure = onFailure
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    state = Locked(State(handle: try FileHandle(forWritingTo: URL(fileURLWithPath: path))))
  }

  func write(_ text: String) {
    var failure: String?
    state.withLock { state in
      guard let handle = state.handle, !state.truncated, !state.failed else { return }
      var data = Data(text.utf8)
      if state.written + data.count > limit {
        data = data.prefix(max(0, limit - state.written))
        data.append(Data("\n[log cut at \(limit) bytes]\n".utf8))
        state.truncated = true
      }
      do {
        try handle.write(contentsOf: data)
        state.written += data.count
      } catch {
        state.failed = true
        failure = "cannot write the run log \(path): \(error.localizedDescription)"
      }
    }
    if let failure { onFailure(failure) }
  }

  func line(_ text: String) { write(text.hasSuffix("\n") ? text : text + "\n") }

  func close() {
    state.withLock { state in
      try? state.handle?.close()
      state.handle = nil
    }
  }
}
