/// One test as its test binary lists it (`--list-tests`): `CoreTests.ParserTests/testParse` (XCTest),
/// `CoreTests.Suite/parse(_:)` or `CoreTests.Outer/Inner/thing()` (Swift Testing). The listed text is the identity,
/// kept exact (spaces, parentheses, non-ASCII): two tests of one name in two suites are two tests.
public struct TestID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  public let id: String

  public init(_ id: String) { self.id = id }

  public init(suite: String, name: String) { self.id = suite + "/" + name }

  /// Everything before the last `/` outside backquotes and parentheses: `CoreTests.Outer/Inner`.
  public var suite: String { String(id[..<splitIndex]) }

  /// The test function: `testParse`, `parse(_:)`, `` `adds two numbers`() ``.
  public var name: String {
    splitIndex == id.endIndex ? id : String(id[id.index(after: splitIndex)...])
  }

  private var splitIndex: String.Index {
    var depth = 0
    var quoted = false
    var index = id.endIndex
    while index > id.startIndex {
      index = id.index(before: index)
      switch id[index] {
      case "`": quoted.toggle()
      case ")" where !quoted: depth += 1
      case "(" where !quoted: depth -= 1
      case "/" where !quoted && depth == 0: return index
      default: break
      }
    }
    return id.endIndex
  }

  public var description: String { id }
  public static func < (a: TestID, b: TestID) -> Bool { a.id < b.id }

  public init(from decoder: any Decoder) throws { id = try decoder.singleValueContainer().decode(String.self) }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(id)
  }
}
