import Foundation
import Testing

@testable import SourceChanges

/// The classifier on pairs of texts: one expectation per kind of change.
@Suite struct SourceChangeClassifierTests {
  let parser = """
    public struct Parser {
      public init() {}

      public func parse(_ text: String) -> Int {
        if text.isEmpty { return 0 }
        return text.count
      }

      func parse(text: Substring) -> Int { text.count }
    }
    """

  func classify(_ old: String, _ new: String) -> SourceChange { SourceChangeClassifier.classify(old: old, new: new) }

  func changedNames(_ change: SourceChange) -> [String]? {
    guard case .bodiesOnly(let functions) = change else { return nil }
    return functions.map(\.name)
  }

  func declarationReason(_ change: SourceChange) -> String? {
    guard case .declarations(let declaration) = change else { return nil }
    return declaration.reason
  }

  @Test func aBodyChangeNamesTheFunctionWithItsOldAndNewLines() {
    let new = parser.replacingOccurrences(of: "return 0", with: "return -1")
      .replacingOccurrences(of: "public init() {}", with: "public init() {}\n")
    let change = classify(parser, new)
    #expect(
      change
        == .bodiesOnly([
          ChangedFunction(name: "Parser.parse(_:)", newLines: LineRange(5, 8), oldLines: LineRange(4, 7))
        ]))
  }

  @Test func overloadsWithOneBaseNameAreToldApartByTheirLabels() {
    let new = parser.replacingOccurrences(of: "{ text.count }", with: "{ text.count + 1 }")
    #expect(changedNames(classify(parser, new)) == ["Parser.parse(text:)"])
  }

  @Test func commentsAndWhitespaceAloneChangeNothing() {
    let new =
      "// A parser.\n" + parser.replacingOccurrences(of: "return text.count", with: "return   text.count // all")
    #expect(classify(parser, new) == .bodiesOnly([]))
    #expect(classify(parser, parser) == .bodiesOnly([]))
  }

  @Test func aSignatureChangeIsADeclarationChange() {
    let new = parser.replacingOccurrences(of: "parse(_ text: String) -> Int", with: "parse(_ text: String) -> Int?")
    #expect(declarationReason(classify(parser, new))?.contains("`Parser.parse(_:)`") == true)
    let defaulted = parser.replacingOccurrences(of: "parse(_ text: String)", with: "parse(_ text: String = \"\")")
    #expect(declarationReason(classify(parser, defaulted)) != nil)
  }

  @Test func anAddedOrRemovedDeclarationIsNamedWithItsLine() {
    let added = parser.replacingOccurrences(of: "public init() {}", with: "public init() {}\n  func reset() {}")
    guard case .declarations(let change) = classify(parser, added) else {
      Issue.record("not a declaration change")
      return
    }
    #expect(change.reason == "`Parser.reset()` was added")
    #expect(change.line == 3)
    #expect(change.testsOnly == nil)
    #expect(declarationReason(classify(added, parser)) == "`Parser.reset()` was removed")
  }

  @Test func equalityAndHashingBodiesAreDeclarationChanges() {
    let old = """
      struct Key: Hashable {
        var name: String
        static func == (a: Key, b: Key) -> Bool { a.name == b.name }
        func hash(into hasher: inout Hasher) { hasher.combine(name) }
      }
      """
    #expect(
      declarationReason(classify(old, old.replacingOccurrences(of: "a.name == b.name", with: "a.name != b.name")))
        == "the equality or hashing `Key.==(_:_:)` changed: whether a test calls it depends on its run's hash seed")
    #expect(
      declarationReason(classify(old, old.replacingOccurrences(of: "combine(name)", with: "combine(0)")))?
        .hasPrefix("the equality or hashing `Key.hash(into:)` changed") == true)
  }

  @Test func aRenamedDeclarationIsNamedBothWays() {
    let renamed = parser.replacingOccurrences(of: "func parse(text:", with: "func parseAll(text:")
    #expect(
      declarationReason(classify(parser, renamed))
        == "`Parser.parse(text:)` was renamed or replaced by `Parser.parseAll(text:)`")
  }

  @Test func attributesAndModifiersAreDeclarations() {
    for attribute in ["@inlinable", "@usableFromInline", "@_transparent", "@discardableResult", "private", "static"] {
      let new = parser.replacingOccurrences(of: "func parse(text:", with: "\(attribute) func parse(text:")
      #expect(declarationReason(classify(parser, new)) != nil, "\(attribute)")
    }
  }

  @Test func anInlinableBodyIsADeclarationChange() {
    let old = "public struct S {\n  @inlinable public func f() -> Int { 1 }\n}"
    let new = old.replacingOccurrences(of: "{ 1 }", with: "{ 2 }")
    #expect(
      declarationReason(classify(old, new))
        == "the body of `@inlinable` `S.f()` changed: other modules may have inlined it")
    let transparent = "@_transparent func g() -> Int { 1 }"
    #expect(declarationReason(classify(transparent, transparent.replacingOccurrences(of: "1", with: "2"))) != nil)
    let getter = "public struct S {\n  @inlinable public var x: Int { 1 }\n}"
    #expect(declarationReason(classify(getter, getter.replacingOccurrences(of: "{ 1 }", with: "{ 2 }"))) != nil)
  }

  @Test func aBodyUnderAnAttributeThatMayBeAMacroIsADeclarationChange() {
    let old = "@Traced func f() -> Int { 1 }"
    #expect(
      declarationReason(classify(old, old.replacingOccurrences(of: "1", with: "2")))?.contains("`@Traced`") == true)
    let known = "@MainActor @discardableResult func f() -> Int { 1 }"
    #expect(changedNames(classify(known, known.replacingOccurrences(of: "1", with: "2"))) == ["f()"])
  }

  @Test func conformanceInheritanceAndExtensionsAreDeclarations() {
    let old = "struct S: Equatable {}\nextension S: Hashable where T: Hashable {}"
    #expect(
      declarationReason(classify(old, old.replacingOccurrences(of: "S: Equatable", with: "S: Equatable, Sendable")))?
        .contains("`struct S`") == true)
    #expect(
      declarationReason(classify(old, old.replacingOccurrences(of: "extension S: Hashable", with: "extension S")))?
        .contains("`extension S`") == true)
    #expect(declarationReason(classify(old, old + "\nextension S {}")) == "`extension S` was added")
  }

  @Test func storedPropertiesAndTheirInitialValuesAreDeclarations() {
    let old = "struct S {\n  var count = 1\n  let make = { 1 }\n}"
    #expect(
      declarationReason(classify(old, old.replacingOccurrences(of: "count = 1", with: "count = 2")))
        == "the stored property `S.count` changed (its type, attributes, modifiers or initial value)")
    // A closure assigned to a stored property is its initial value, not a function body.
    #expect(
      declarationReason(classify(old, old.replacingOccurrences(of: "{ 1 }", with: "{ 2 }")))?.contains("`S.make`")
        == true
    )
  }

  @Test func globalAndStaticInitialValuesAreDeclarations() {
    let global = "let limit = 10\nenum E { static var shared = Box(1) }"
    #expect(
      declarationReason(classify(global, global.replacingOccurrences(of: "10", with: "11")))
        == "the global or static variable `limit` changed (its type, attributes, modifiers or initial value)")
    #expect(
      declarationReason(classify(global, global.replacingOccurrences(of: "Box(1)", with: "Box(2)")))?
        .contains("`E.shared`") == true)
  }

  @Test func accessorsAreFunctions() {
    let old = """
      struct S {
        var stored = 0 {
          didSet { print(oldValue) }
        }
        var computed: Int {
          get { stored }
          set { stored = newValue }
        }
        var short: Int { stored * 2 }
        subscript(i: Int) -> Int { i }
      }
      """
    let changes = [
      ("print(oldValue)", "print(stored)", "S.stored.didSet"),
      ("get { stored }", "get { stored + 1 }", "S.computed.get"),
      ("set { stored = newValue }", "set { stored = -newValue }", "S.computed.set"),
      ("stored * 2", "stored * 3", "S.short.get"),
      ("-> Int { i }", "-> Int { -i }", "S.subscript(_:).get"),
    ]
    for (from, to, name) in changes {
      #expect(changedNames(classify(old, old.replacingOccurrences(of: from, with: to))) == [name])
    }
    // Adding an observer changes the declaration.
    let observed = old.replacingOccurrences(of: "didSet", with: "willSet { }\n    didSet")
    #expect(declarationReason(classify(old, observed)) != nil)
  }

  @Test func initializersDeinitializersAndNestedGenericTypes() {
    let old = """
      final class Box<T: Equatable> {
        struct Inner<U> where U: Sendable {
          func f<V>(_ v: V) -> Int { 1 }
        }
        init(value: T) { print(value) }
        deinit { print("bye") }
      }
      """
    let changes = [
      ("{ 1 }", "{ 2 }", "Box.Inner.f(_:)"),
      ("print(value)", "print(value, value)", "Box.init(value:)"),
      ("print(\"bye\")", "print(\"ciao\")", "Box.deinit"),
    ]
    for (from, to, name) in changes {
      #expect(changedNames(classify(old, old.replacingOccurrences(of: from, with: to))) == [name])
    }
    #expect(declarationReason(classify(old, old.replacingOccurrences(of: "U: Sendable", with: "U: Hashable"))) != nil)
  }

  @Test func conditionalCompilation() {
    let inBody = "func f() -> Int {\n  #if DEBUG\n  return 1\n  #else\n  return 2\n  #endif\n}"
    #expect(changedNames(classify(inBody, inBody.replacingOccurrences(of: "DEBUG", with: "TRACE"))) == ["f()"])
    let around = "#if os(Linux)\nfunc f() -> Int { 1 }\n#endif"
    #expect(
      declarationReason(classify(around, around.replacingOccurrences(of: "os(Linux)", with: "canImport(Glibc)")))
        == "an `#if` condition or its declarations changed")
    // A body inside an unchanged #if is still a body.
    #expect(changedNames(classify(around, around.replacingOccurrences(of: "{ 1 }", with: "{ 2 }"))) == ["f()"])
  }

  @Test func importsOperatorsAndMacroExpansionsAreDeclarations() {
    let old = "import Foundation\ninfix operator <+>: AdditionPrecedence\n#warning(\"x\")\nfunc f() {}"
    #expect(declarationReason(classify(old, "import Dispatch\n" + old)) == "`import Dispatch` was added")
    #expect(declarationReason(classify(old, old.replacingOccurrences(of: "Addition", with: "Multiplication"))) != nil)
    #expect(declarationReason(classify(old, old.replacingOccurrences(of: "\"x\"", with: "\"y\""))) != nil)
  }

  @Test func testFunctionsAddedOrRemovedAreTestsOnly() {
    let old = """
      import XCTest
      final class ParserTests: XCTestCase {
        func testParse() { XCTAssertEqual(1, 1) }
      }
      @Suite struct More {
        @Test("a name with spaces") func thing() { #expect(true) }
      }
      """
    let new =
      old
      .replacingOccurrences(of: "func testParse()", with: "func testParseAgain()")
      .replacingOccurrences(of: "#expect(true)", with: "#expect(!false)")
      .replacingOccurrences(of: "func thing() {", with: "func thing() {}\n  @Test func other() {")
    guard case .declarations(let change) = classify(old, new), let tests = change.testsOnly else {
      Issue.record("not a tests-only change")
      return
    }
    #expect(tests.added == ["ParserTests.testParseAgain()", "More.other()"])
    #expect(tests.removed == ["ParserTests.testParse()"])
    #expect(tests.changedBodies.map(\.name) == ["More.thing()"])
    // A helper added beside them is not a test.
    let helper = old.replacingOccurrences(of: "func testParse()", with: "func helper(_ x: Int) {}\n  func testParse()")
    guard case .declarations(let other) = classify(old, helper) else {
      Issue.record("not a declaration change")
      return
    }
    #expect(other.testsOnly == nil)
  }

  @Test func aTextThatDoesNotParseIsUnparseable() {
    #expect(
      classify(parser, "struct S {\n  func f( {\n}")
        == .unparseable("the new text does not parse: line 2: expected `)`"))
    guard case .unparseable(let reason) = classify("func f() { ", parser) else {
      Issue.record("expected unparseable")
      return
    }
    #expect(reason.hasPrefix("the old text does not parse: line 1"))
  }

  @Test func topLevelCodeIsADeclarationChange() {
    #expect(declarationReason(classify("print(1)", "print(2)")) == "top-level code changed")
  }
}
