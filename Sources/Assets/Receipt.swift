import Foundation

/// A file Ripple installed, as it was right after installing it.
public struct ManagedFile: Codable, Sendable, Hashable {
  /// Relative to its destination.
  public var path: String
  public var size: Int64
  public var mtimeNanoseconds: Int64
  /// Of the contents (of the link target text, for a symlink).
  public var sha256: String
}

/// Whether an asset's files are the real ones or its placeholders; for a `generate:` entry, the
/// command's outputs (`generated`) or its private asset's files (`private`).
public enum InstallKind: String, Codable, Sendable, Hashable {
  case `private`
  case placeholder
  case generated
}

/// What Ripple installed for one asset: `<repo>/.build/ripple/receipts/<asset-id>.json`.
///
/// Receipts live under `.build` (git-ignored, and never bundled by SwiftPM) rather than in the
/// resource folders, where `.process`/`.copy` would ship them inside the app.
public struct Receipt: Codable, Sendable, Hashable {
  public var assetID: String
  /// Digest of everything that decides the installed files (sha256, archive, transform, destinations,
  /// placeholders, kind): a changed config makes the receipt stale.
  public var fingerprint: String
  public var kind: InstallKind
  /// Repo-relative destination → files.
  public var destinations: [String: [ManagedFile]]
}

/// Where Ripple keeps its per-repository state, all under `<repo>/.build/ripple` (git-ignored).
public struct RepositoryState: Sendable {
  public var repositoryRoot: String

  public init(repositoryRoot: String) {
    self.repositoryRoot = repositoryRoot
  }

  var directory: String { repositoryRoot + "/.build/ripple" }
  var lockPath: String { directory + "/bootstrap.lock" }
  var receiptsDirectory: String { directory + "/receipts" }
  /// The stat cache of the SHA-256 of installed files that git sees as untracked: a run compares them with
  /// their receipts without reading them again while their stat is the same.
  public var installedDigestsPath: String { directory + "/installed-digests.tsv" }
  func receiptPath(_ assetID: String) -> String { "\(receiptsDirectory)/\(assetID).json" }
  func journalPath(_ assetID: String) -> String { "\(directory)/journal/\(assetID).json" }
  var journalDirectory: String { directory + "/journal" }
  func workPath(_ assetID: String) -> String { "\(directory)/work/\(assetID)" }

  /// Beside the destination (same file system: the swap is made of renames), hidden from SwiftPM.
  func stagingPath(destination: String, assetID: String) -> String {
    siblingPath(destination, prefix: ".ripple-staging", assetID: assetID)
  }

  func backupPath(destination: String, assetID: String) -> String {
    siblingPath(destination, prefix: ".ripple-backup", assetID: assetID)
  }

  func absolute(_ relative: String) -> String { repositoryRoot + "/" + relative }

  private func siblingPath(_ destination: String, prefix: String, assetID: String) -> String {
    let parent = PathParts.parent(absolute(destination))
    let leaf = PathParts.name(destination)
    return "\(parent)/\(prefix).\(assetID).\(leaf)"
  }

  public func loadReceipt(_ assetID: String) -> Receipt? {
    guard let data = FileManager.default.contents(atPath: receiptPath(assetID)) else { return nil }
    return try? JSONDecoder().decode(Receipt.self, from: data)
  }

  func saveReceipt(_ receipt: Receipt?, assetID: String) throws {
    guard let receipt else { return try FileIO.remove(receiptPath(assetID)) }
    try FileIO.writeAtomically(try Self.encoder.encode(receipt), to: receiptPath(assetID))
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return encoder
  }()
}

extension ManagedFile {
  /// Records `absolutePath` as it is now (hashing it).
  static func record(_ relative: String, at absolutePath: String) throws -> ManagedFile {
    guard let stamp = FileIO.stamp(absolutePath) else { throw FileIO.failure("read", absolutePath) }
    let digest: String
    if FileIO.isSymlink(absolutePath) {
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: absolutePath)) ?? ""
      digest = FileHasher.sha256(of: Data(target.utf8))
    } else {
      digest = try FileHasher.sha256(of: absolutePath).hex
    }
    return ManagedFile(path: relative, size: stamp.size, mtimeNanoseconds: stamp.mtimeNanoseconds, sha256: digest)
  }

  /// Size and mtime as recorded: the file is taken as unchanged without hashing it.
  func stampMatches(_ absolutePath: String) -> Bool {
    guard let stamp = FileIO.stamp(absolutePath) else { return false }
    return stamp.size == size && stamp.mtimeNanoseconds == mtimeNanoseconds
  }
}
