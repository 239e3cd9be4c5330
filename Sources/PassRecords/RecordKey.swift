import Foundation

/// The content key of one test target's run: the lowercase hex SHA-256 of its key inputs (`KeyInputs`).
///
/// It is the only name a store ever sees. Built only from 64 lowercase hex digits, so a key read from a
/// hostile store or typed by a user can never carry `..`, `/` or anything a path or URL would interpret.
public struct RecordKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  public let hex: String

  /// Nil unless `hex` is exactly 64 lowercase hex digits.
  public init?(hex: String) {
    guard hex.utf8.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else { return nil }
    self.hex = hex
  }

  public var description: String { hex }

  public static func < (lhs: RecordKey, rhs: RecordKey) -> Bool { lhs.hex < rhs.hex }

  public init(from decoder: Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let key = RecordKey(hex: text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not a record key (64 lowercase hex digits)"))
    }
    self = key
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(hex)
  }
}
