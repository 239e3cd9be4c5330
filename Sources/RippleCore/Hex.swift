/// Lowercase hex of bytes (digests, ids), without Foundation's `String(format:)`, which costs ~1 µs a byte:
/// a keyed run digests thousands of folders and files.
public enum Hex {
  public static func string(_ bytes: some Sequence<UInt8>) -> String {
    let bytes = Array(bytes)
    // Digits by arithmetic, not from a table: a static table is reached through its lazy initializer on
    // every byte (2,000 keys and ~10⁴ folder digests a run).
    return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
      func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
      }
      var index = 0
      for byte in bytes {
        out[index] = digit(byte >> 4)
        out[index + 1] = digit(byte & 0x0F)
        index += 2
      }
      return index
    }
  }
}
