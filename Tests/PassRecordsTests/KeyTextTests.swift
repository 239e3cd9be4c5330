import Crypto
import PassRecords
import RippleCore
import Testing

/// A key is the SHA-256 of its canonical text, however the bytes are put together: fields with separators are
/// escaped, and the others are copied as they are.
@Suite struct KeyTextTests {
  @Test func theKeyIsTheDigestOfTheCanonicalTextForEveryKindOfField() {
    let fields = [
      "plain", "Sources/Core/Math.swift", "tab\there", "line\nbreak", "carriage\rreturn", "windows\r\nline",
      "back\\slash", "zählt", "e\u{301}", "",
    ]
    for field in fields {
      var inputs = KeyInputs()
      inputs.add("files", field, "100644:" + field)
      inputs.add("target", ".:Core", field)
      let expected = Hex.string(SHA256.hash(data: Array(inputs.canonicalText.utf8)))
      #expect(inputs.key.hex == expected, "\(field.debugDescription)")
    }
    var escaped = KeyInputs()
    escaped.add("env", "A", "1\t2\n3\\")
    #expect(escaped.canonicalText.hasSuffix("env\tA\t1\\t2\\n3\\\\\n"))
    // A `\r\n` and a `\` before a combining mark are one Swift Character each: escaped all the same, so the only
    // raw line breaks of the text end its lines.
    var joined = KeyInputs()
    joined.add("env", "B", "windows\r\nline \\\u{301}")
    #expect(joined.canonicalText.hasSuffix("env\tB\twindows\\r\\nline \\\\\u{301}\n"))
    #expect(!joined.canonicalText.utf8.contains(0x0D))
    #expect(joined.key.hex == Hex.string(SHA256.hash(data: Array(joined.canonicalText.utf8))))
  }

  @Test func hexIsLowercaseTwoDigitsPerByte() {
    #expect(Hex.string([0x00, 0x09, 0x0A, 0x7F, 0xA0, 0xFF]) == "00090a7fa0ff")
    #expect(Hex.string([UInt8]()) == "")
    #expect(
      Hex.string(SHA256.hash(data: Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
