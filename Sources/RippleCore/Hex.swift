/// Lowercase hex of bytes (digests, ids), without Foundation's `String(format:)`, which costs ~1 µs a byte:
/// a keyed run digests thousands of folders and files.
public enum Hex {
  private static let digits = Array("0123456789abcdef".utf8)

  public static func string(_ bytes: some Sequence<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
