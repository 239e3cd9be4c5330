import Clibgit2

/// A git object name (SHA-1, 40 lowercase hex digits). Encodes as a plain JSON string.
public struct ObjectID: Hashable, Sendable, Codable, CustomStringConvertible {
  public let hex: String

  /// Wraps a full hex object name as is (lowercased). No lookup: use `GitRepository.resolveCommit` for user input.
  public init(hex: String) {
    self.hex = hex.lowercased()
  }

  package init(_ oid: UnsafePointer<git_oid>) {
    // GIT_OID_HEXSZ (40) characters plus the terminating NUL.
    var buffer = [CChar](repeating: 0, count: 41)
    let hex = buffer.withUnsafeMutableBufferPointer { buf -> String in
      git_oid_tostr(buf.baseAddress, buf.count, oid)
      return String(cString: buf.baseAddress!)
    }
    self.hex = hex
  }

  /// The first 12 hex digits, for messages.
  public var short: String { String(hex.prefix(12)) }

  public var description: String { hex }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(hex: try container.decode(String.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(hex)
  }
}
