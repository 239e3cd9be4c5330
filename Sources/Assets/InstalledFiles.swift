import Foundation
import RippleCore

/// The files bootstrap installed, as its receipts record them (docs/DESIGN.md, rule 1): an untracked file
/// that still holds the recorded bytes came from `ripple bootstrap`, not from a person, so it is no change.
public struct InstalledFiles: Sendable, Hashable {
  /// Size and SHA-256 of one file right after it was installed.
  public struct Digest: Sendable, Hashable {
    public var size: Int64
    public var sha256: String

    public init(size: Int64, sha256: String) {
      self.size = size
      self.sha256 = sha256
    }
  }

  /// Repo-relative path → what was installed there.
  public var recorded: [String: Digest]

  public init(recorded: [String: Digest]) {
    self.recorded = recorded
  }

  /// Every receipt of the checkout at `repositoryRoot` (`.build/ripple/receipts`), and the reports `ripple test`
  /// wrote there (`RippleOutputs`). A receipt that cannot be read vouches for nothing: its files stay changes.
  public static func load(repositoryRoot: String) -> InstalledFiles {
    let state = RepositoryState(repositoryRoot: repositoryRoot)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: state.receiptsDirectory)) ?? []
    var recorded: [String: Digest] = [:]
    for name in names where name.hasSuffix(".json") {
      guard let receipt = state.loadReceipt(String(name.dropLast(5))) else { continue }
      for (destination, files) in receipt.destinations {
        for file in files {
          recorded[destination + "/" + file.path] = Digest(size: file.size, sha256: file.sha256)
        }
      }
    }
    for (path, digest) in RippleOutputs.load(repositoryRoot: repositoryRoot) where recorded[path] == nil {
      recorded[path] = digest
    }
    return InstalledFiles(recorded: recorded)
  }

  /// Splits working-tree changes: an added (untracked) file whose bytes, as `measure` reads them, are the
  /// recorded ones is `installed`; everything else, an installed file a person edited included, stays a change.
  /// `measure` is called for recorded candidates only.
  public func split(_ changes: [ChangedFile], measure: (String) -> Digest?) -> (
    changes: [ChangedFile], installed: [String]
  ) {
    var kept: [ChangedFile] = []
    var installed: [String] = []
    for change in changes {
      if change.status == .added, let digest = recorded[change.path], measure(change.path) == digest {
        installed.append(change.path)
      } else {
        kept.append(change)
      }
    }
    return (kept, installed)
  }

  /// The size and SHA-256 of the repo-relative `path` now (of the link text, for a symlink, as receipts
  /// record it); nil when it cannot be read.
  public static func measure(_ path: String, repositoryRoot: String) -> Digest? {
    guard let file = try? ManagedFile.record(path, at: repositoryRoot + "/" + path) else { return nil }
    return Digest(size: file.size, sha256: file.sha256)
  }
}
