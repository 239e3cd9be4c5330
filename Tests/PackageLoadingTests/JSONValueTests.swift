import PackageModel
import Testing

@testable import PackageLoading

@Suite struct JSONValueTests {
  func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

  @Test func parsesEveryKindOfValue() throws {
    let value = try parse(#" { "b": [true, false, null], "n": [-12, 1.5, 2e3], "s": "x" } "#)
    #expect(
      value
        == .object([
          "b": .array([.bool(true), .bool(false), .null]), "n": .array([.int(-12), .double(1.5), .double(2000)]),
          "s": .string("x"),
        ]))
  }

  @Test func stringEscapes() throws {
    #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00é""#) == .string("a\"b\\c/d\n\té😀é"))
  }

  @Test func canonicalTextSortsKeysAndRoundTrips() throws {
    let value = try parse(#"{"z": 1, "a": {"y": "q\"\n", "b": []}, "m": [null, true]}"#)
    #expect(value.canonicalText == #"{"a":{"b":[],"y":"q\"\n"},"m":[null,true],"z":1}"#)
    #expect(try parse(value.canonicalText) == value)
  }

  @Test func rejectsInvalidDocuments() {
    for text in ["", "{", #"{"a" 1}"#, "[1,]", #""open"#, "tru", "{} x", #""\u12""#] {
      #expect(throws: JSONValue.SyntaxError.self, "\(text)") { try parse(text) }
    }
  }
}
