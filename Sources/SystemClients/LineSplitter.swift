/// Splits a process's output into lines as the bytes come, without ever holding more than `maxLineBytes` of one
/// line: a longer line is cut there, its first part delivered with a marker saying how many bytes were left out
/// (swift-subprocess's own line reader throws on a line over 128 KiB, which ended a whole test run). Lines end at
/// `\n`; a `\r` before it is dropped. Invalid UTF-8 is repaired, not fatal.
public struct LineSplitter: Sendable {
  public let maxLineBytes: Int
  private var line: [UInt8] = []
  private var dropped = 0

  public init(maxLineBytes: Int = 64 * 1024) { self.maxLineBytes = max(16, maxLineBytes) }

  /// The lines `bytes` completes.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [String] {
    var lines: [String] = []
    for byte in bytes {
      if byte == 0x0A {
        lines.append(take())
      } else if line.count < maxLineBytes {
        line.append(byte)
      } else {
        dropped += 1
      }
    }
    return lines
  }

  /// The last line, if the output did not end with a line break.
  public mutating func finish() -> String? {
    line.isEmpty && dropped == 0 ? nil : take()
  }

  private mutating func take() -> String {
    if dropped == 0, line.last == 0x0D { line.removeLast() }
    var text = String(decoding: line, as: UTF8.self)
    if dropped > 0 { text += " [… line cut: \(dropped) more bytes]" }
    line.removeAll(keepingCapacity: line.count <= 4096)
    dropped = 0
    return text
  }
}

/// The last `limit` bytes of what was appended (amortised: trimmed when twice as long).
struct OutputTail: Sendable {
  let limit: Int
  private(set) var bytes: [UInt8] = []
  private(set) var cut = 0

  init(limit: Int) { self.limit = limit }

  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
    bytes.append(0x0A)
    if bytes.count > 2 * limit {
      let excess = bytes.count - limit
      bytes.removeFirst(excess)
      cut += excess
    }
  }
}
