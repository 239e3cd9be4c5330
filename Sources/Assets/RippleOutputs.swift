import Foundation
import RippleCore

/// The files `ripple test` wrote into the work tree on its last runs (`--junit`, `--report-json`,
/// `--summary-md`, coverage reports), with their bytes' size and SHA-256 (docs/DESIGN.md, "Ripple's own
/// outputs"). As long as a file holds those bytes it is no change: the README's `--junit junit.xml` no longer
/// makes the next run "every test runs: junit.xml". A person's edit of one is a change.
public enum RippleOutputs {
  static func file(repositoryRoot: String) -> String { repositoryRoot + "/.build/ripple/outputs.json" }

  /// What is recorded, repo-relative path → digest; empty when nothing is (or the file cannot be read).
  public static func load(repositoryRoot: String) -> [String: InstalledFiles.Digest] {
    guard let data = FileManager.default.contents(atPath: file(repositoryRoot: repositoryRoot)),
      let entries = try? JSONDecoder().decode([String: Entry].self, from: data)
    else { return [:] }
    return entries.mapValues { InstalledFiles.Digest(size: $0.size, sha256: $0.sha256) }
  }

  /// Records the regular files among `paths` (absolute) that lie inside the work tree, as they are now. A
  /// failure only costs the next run a change it did not need.
  public static func record(_ paths: [String], repositoryRoot: String) {
    let root = repositoryRoot.hasSuffix("/") ? String(repositoryRoot.dropLast()) : repositoryRoot
    var entries =
      (try? JSONDecoder().decode(
        [String: Entry].self, from: FileManager.default.contents(atPath: file(repositoryRoot: root)) ?? Data())) ?? [:]
    var changed = false
    for path in paths {
      let standard = URL(fileURLWithPath: path).standardizedFileURL.path
      guard standard.hasPrefix(root + "/") else { continue }
      let relative = String(standard.dropFirst(root.count + 1))
      var status = stat()
      guard lstat(standard, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        let digest = InstalledFiles.measure(relative, repositoryRoot: root)
      else { continue }
      entries[relative] = Entry(size: digest.size, sha256: digest.sha256)
      changed = true
    }
    guard changed, let data = try? JSONEncoder().encode(entries) else { return }
    try? FileManager.default.createDirectory(
      atPath: root + "/.build/ripple", withIntermediateDirectories: true)
    try? data.write(to: URL(fileURLWithPath: file(repositoryRoot: root)), options: .atomic)
  }

  struct Entry: Codable {
    var size: Int64
    var sha256: String
  }
}
