import Foundation
import Git

/// What `rippled fetch-mirror` prints: the fetch runs in a child process, so the service can kill it at
/// its deadline (libgit2 has no network timeout of its own).
public struct FetchReport: Codable, Sendable {
  var heads: [String: String]
  var updated: [String: String]
  var deleted: [String]

  /// Fetches every branch of `url` into the bare mirror at `mirror` (created if missing).
  public static func fetch(mirror: String, url: String, timeout: Duration) throws -> FetchReport {
    let repository = try GitRepository.openOrCreateBare(at: mirror)
    let summary = try repository.fetchBranches(from: url, timeout: timeout)
    return FetchReport(
      heads: summary.heads.mapValues(\.hex), updated: summary.updated.mapValues(\.hex), deleted: summary.deleted)
  }

  /// The report as the child prints it.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(self)
  }
}
