import Foundation

/// One of `count` equal-effort slices of a selection, numbered from 1 (`--shard 2/4`).
public struct Shard: Sendable, Codable, Hashable, CustomStringConvertible {
  /// 1-based.
  public var index: Int
  public var count: Int

  public init(index: Int, count: Int) throws(TestRunnerError) {
    let text = "\(index)/\(count)"
    guard count >= 1 else { throw .invalidShard(text, reason: "the shard count must be at least 1") }
    guard index >= 1 else { throw .invalidShard(text, reason: "shards are numbered from 1") }
    guard index <= count else {
      throw .invalidShard(text, reason: "shard \(index) does not exist when there are \(count)")
    }
    self.index = index
    self.count = count
  }

  /// Parses "I/N".
  public init(parsing text: String) throws(TestRunnerError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
      let count = Int(parts[1].trimmingCharacters(in: .whitespaces))
    else { throw .invalidShard(text, reason: "expected two whole numbers separated by /") }
    try self.init(index: index, count: count)
  }

  public var description: String { "\(index)/\(count)" }
}
