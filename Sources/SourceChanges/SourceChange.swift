/// Lines `first...last` of a file, 1-based and inclusive.
public struct LineRange: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  public var first: Int
  public var last: Int

  public init(_ first: Int, _ last: Int) {
    self.first = first
    self.last = max(first, last)
  }

  /// True when the two ranges share a line.
  public func overlaps(_ other: LineRange) -> Bool { first <= other.last && other.first <= last }

  public static func < (a: LineRange, b: LineRange) -> Bool { (a.first, a.last) < (b.first, b.last) }
  public var description: String { first == last ? "\(first)" : "\(first)-\(last)" }

  // Encoded as `[first, last]`: maps hold many of them.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    let first = try container.decode(Int.self)
    let last = try container.decode(Int.self)
    guard first >= 1, last >= first else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "bad line range [\(first), \(last)]")
    }
    self.init(first, last)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(first)
    try container.encode(last)
  }
}

/// A function (or initializer, deinitializer, accessor, subscript) whose body alone differs between two texts.
public struct ChangedFunction: Sendable, Hashable {
  /// Qualified by its enclosing types, with argument labels: `Parser.parse(_:)`, `Parser.count.get`.
  public var name: String
  /// Its declaration's lines in the new text.
  public var newLines: LineRange
  /// Its declaration's lines in the old text: what a coverage map made at the old commit is compared with.
  public var oldLines: LineRange

  public init(name: String, newLines: LineRange, oldLines: LineRange) {
    self.name = name
    self.newLines = newLines
    self.oldLines = oldLines
  }
}

/// A change that is not confined to function bodies: the first one found, described for a person.
public struct DeclarationChange: Sendable, Hashable {
  /// What changed, e.g. "`Parser.parse(_:)`'s declaration changed (signature, attributes or modifiers)".
  public var reason: String
  /// Its line in the new text (the old text's when it was removed).
  public var line: Int
  /// Set when the only declaration changes are test functions added or removed (XCTest `func test…()`, Swift
  /// Testing `@Test`): those tests and the functions whose bodies changed. Nil for any other declaration change.
  public var testsOnly: TestFunctionChanges?

  public init(reason: String, line: Int, testsOnly: TestFunctionChanges? = nil) {
    self.reason = reason
    self.line = line
    self.testsOnly = testsOnly
  }
}

/// Test functions added or removed, and bodies changed beside them.
public struct TestFunctionChanges: Sendable, Hashable {
  public var added: [String]
  public var removed: [String]
  public var changedBodies: [ChangedFunction]

  public init(added: [String], removed: [String], changedBodies: [ChangedFunction]) {
    self.added = added
    self.removed = removed
    self.changedBodies = changedBodies
  }
}

/// How one Swift file changed between two texts.
public enum SourceChange: Sendable, Hashable {
  /// Only bodies differ (an empty list: only comments or whitespace did).
  case bodiesOnly([ChangedFunction])
  /// A declaration changed: the code that depends on it may change without any of its bodies running.
  case declarations(DeclarationChange)
  /// One of the texts does not parse; nothing can be said below the file.
  case unparseable(String)

  /// A sentence for a person, e.g. why a target runs whole.
  public var summary: String {
    switch self {
    case .bodiesOnly(let functions):
      functions.isEmpty
        ? "only comments or whitespace changed"
        : "bodies changed: " + functions.map { "`\($0.name)`" }.joined(separator: ", ")
    case .declarations(let change): "line \(change.line): \(change.reason)"
    case .unparseable(let reason): reason
    }
  }
}
