import Testing
import XcodeLoading
import XcodeModel

/// `PlistDictionary`, the reader's dictionary (an ordered list with an index above 16 keys): lookups,
/// a repeated key as Foundation reads it, and equality independent of the order of the keys.
@Suite struct PlistDictionaryTests {
  /// A dictionary of `count` keys `k0`… with `k1` given again at the end: small ones are searched
  /// linearly, large ones through the index; both keep the last value at the first one's place.
  @Test(arguments: [4, 16, 17, 40, 3000]) func aRepeatedKeyKeepsItsLastValueAsInFoundation(count: Int) throws {
    let fields = (0..<count).map { "k\($0) = v\($0);" }.joined(separator: " ")
    let bytes = Array("{ \(fields) k1 = later; }".utf8)
    let value = try OpenStepPlist.parse(bytes)
    #expect(value == (try ProjectFileReader.foundationValue(bytes).get()))
    let dictionary = try #require(value.dictionary)
    #expect(dictionary.count == count)
    #expect(dictionary["k1"] == .string("later"))
    #expect(dictionary["k\(count - 1)"] == .string("v\(count - 1)"))
    #expect(dictionary["k\(count)"] == nil)
    #expect(dictionary.keys == (0..<count).map { "k\($0)" })
  }

  @Test(arguments: [3, 30]) func setAndRemoveKeepLookupsRight(count: Int) {
    var dictionary = PlistDictionary()
    for index in 0..<count { dictionary["key \(index)"] = .string("\(index)") }
    dictionary["key 1"] = .string("changed")
    dictionary["key 0"] = nil
    dictionary["missing"] = nil
    #expect(dictionary.count == count - 1)
    #expect(dictionary["key 0"] == nil)
    #expect(dictionary["key 1"] == .string("changed"))
    #expect(dictionary["key \(count - 1)"] == .string("\(count - 1)"))
    #expect(dictionary.keys.first == "key 1")
  }

  @Test func equalityAndHashIgnoreKeyOrder() throws {
    let one = try OpenStepPlist.parse(Array("{ a = 1; b = (x, {c = d;}); \"é\\n\" = e; }".utf8))
    let other = try OpenStepPlist.parse(Array("{ \"\\U00e9\\n\" = e; b = (x, {c = d;}); a = 1; }".utf8))
    #expect(one == other)
    #expect(one.hashValue == other.hashValue)
    #expect(one["é\n"] == .string("e"))
    #expect(one != (try OpenStepPlist.parse(Array("{ a = 1; b = (x, {c = e;}); \"é\\n\" = e; }".utf8))))
    let literal: PlistDictionary = ["b": .string("2"), "a": .string("1")]
    #expect(literal == PlistDictionary(["a": .string("1"), "b": .string("2")]))
  }
}
