/// The byte form the caches' binary archives share (`GraphArchive`, the Xcode cache's `XcodeArchive`):
/// LEB128 counts and length-prefixed UTF-8 strings. Each archive adds its own records in an extension.
/// The reader checks every length against the bytes left and throws `Truncated` rather than trapping, so
/// a damaged entry is a cache miss.
public struct ArchiveWriter: Sendable {
  public private(set) var bytes: [UInt8] = []

  public init() {}

  /// LEB128.
  public mutating func count(_ value: Int) {
    var rest = UInt(value)
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7f) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  public mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      count(utf8.count)
      bytes.append(contentsOf: utf8)
    }
  }

  /// nil as 0; otherwise 1 and the string.
  public mutating func optional(_ text: String?) {
    if let text {
      count(1)
      string(text)
    } else {
      count(0)
    }
  }

  public mutating func strings(_ texts: [String]) {
    count(texts.count)
    for text in texts { string(text) }
  }

  /// nil as 0; otherwise 1 and the strings.
  public mutating func optionalStrings(_ values: [String]?) {
    guard let values else { return count(0) }
    count(1)
    strings(values)
  }

  /// nil as 0; otherwise 1, the count and the values.
  public mutating func indices(_ values: [Int]?) {
    guard let values else { return count(0) }
    count(1)
    count(values.count)
    for value in values { count(value) }
  }
}

public struct ArchiveReader {
  public struct Truncated: Error {}

  public let bytes: ArraySlice<UInt8>
  public private(set) var index: Int

  public init(bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    index = bytes.startIndex
  }

  public var isAtEnd: Bool { index == bytes.endIndex }

  /// A count of items that each take at least one byte: larger than the bytes left is damage.
  public mutating func itemCount() throws(Truncated) -> Int {
    let n = try count()
    guard n <= bytes.endIndex - index else { throw Truncated() }
    return n
  }

  public mutating func count() throws(Truncated) -> Int {
    var value = 0
    var shift = 0
    while true {
      guard index < bytes.endIndex, shift < 56 else { throw Truncated() }
      let byte = bytes[index]
      index += 1
      value |= Int(byte & 0x7f) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  public mutating func string() throws(Truncated) -> String {
    let length = try count()
    guard length <= bytes.endIndex - index else { throw Truncated() }
    let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
    index += length
    return text
  }

  public mutating func optional() throws(Truncated) -> String? {
    switch try count() {
    case 0: return nil
    case 1: return try string()
    default: throw Truncated()
    }
  }

  public mutating func strings() throws(Truncated) -> [String] {
    let n = try itemCount()
    var result: [String] = []
    result.reserveCapacity(n)
    for _ in 0..<n { result.append(try string()) }
    return result
  }

  public mutating func optionalStrings() throws(Truncated) -> [String]? {
    switch try count() {
    case 0: return nil
    case 1: return try strings()
    default: throw Truncated()
    }
  }

  public mutating func indices() throws(Truncated) -> [Int]? {
    switch try count() {
    case 0: return nil
    case 1:
      let n = try itemCount()
      var values: [Int] = []
      for _ in 0..<n { values.append(try count()) }
      return values
    default: throw Truncated()
    }
  }
}
