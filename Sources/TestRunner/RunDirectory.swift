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

  func remove() {
    try? FileManager.default.removeItem(atPath: root)
  }
}
