/// One entry of a shard's work list, as `ripple test --targets` takes it and the generated pipelines write
/// it: `package:Target` (every test of the target), `package:*` (every test of a package),
/// `package:Target/Suite` (the tests of one top-level suite: an XCTest class, a Swift Testing suite type),
/// `package:Target/Suite/test()` (one test, named as `swift test` names it after `Target.`) or
/// `package:Target/-Suite` and `package:Target/-Suite/test()` (every test of the target but that suite's or
/// that test). The last forms are how the shard that holds a split target's remainder runs what no other
/// shard names: new suites and tests, suite-less tests.
public struct ShardEntry: Sendable, Hashable, Comparable, CustomStringConvertible {
  public enum Part: Sendable, Hashable {
    case whole
    /// A top-level suite (`MathTests`) or one test (`MathTests/testAdd`, `Outer.Inner/adds()`).
    case suite(String)
    /// Everything but that suite or test.
    case allBut(String)
  }

  /// Package directory relative to the repository root ("." for the root).
  public var package: String
  /// The test target's name, or `*` for a whole package.
  public var target: String
  public var part: Part

  public init(package: String, target: String, part: Part = .whole) {
    self.package = package
    self.target = target
    self.part = part
  }

  /// The unit this entry belongs to: `package:Target`.
  public var unitID: String { "\(package):\(target)" }

  public var suite: String? {
    switch part {
    case .whole: nil
    case .suite(let name), .allBut(let name): name
    }
  }

  public var description: String {
    switch part {
    case .whole: unitID
    case .suite(let name): "\(unitID)/\(name)"
    case .allBut(let name): "\(unitID)/-\(name)"
    }
  }

  public static func < (lhs: ShardEntry, rhs: ShardEntry) -> Bool { lhs.description < rhs.description }

  /// Parses one id. The package is everything before the last `:` outside parentheses (package paths may hold
  /// colons, target and suite names do not, a Swift Testing test only in its argument labels, `adds(x:)`); a
  /// suite follows the target after a `/`, and a test its suite after another (`package:Target/Suite/test()`).
  public init(parsing id: String) throws(ShardEntryError) {
    // The last colon outside parentheses: a Swift Testing test's argument labels are inside them.
    var depth = 0
    var colon: String.Index?
    for index in id.indices {
      switch id[index] {
      case "(": depth += 1
      case ")": depth = max(0, depth - 1)
      case ":" where depth == 0: colon = index
      default: break
      }
    }
    guard let colon else {
      throw ShardEntryError(id: id, reason: "expected package:Target (\".:AppTests\" for the root package)")
    }
    let package = String(id[..<colon])
    let rest = id[id.index(after: colon)...]
    guard !package.isEmpty else { throw ShardEntryError(id: id, reason: "the package is empty (\".\" is the root)") }
    let target = String(rest.prefix { $0 != "/" })
    guard !target.isEmpty else {
      throw ShardEntryError(id: id, reason: "the target is empty")
    }
    guard rest.count > target.count else {
      self.init(package: package, target: target)
      return
    }
    guard target != "*" else {
      throw ShardEntryError(id: id, reason: "a whole package (package:*) has no suites; name its target")
    }
    var item = String(rest.dropFirst(target.count + 1))
    let excluded = item.hasPrefix("-")
    if excluded { item.removeFirst() }
    let suite = String(item.prefix { $0 != "/" })
    let test = item.dropFirst(suite.count + 1)
    guard item.contains("/") ? Self.isSuitePath(suite) : Self.isSuiteName(suite) else {
      throw ShardEntryError(
        id: id, reason: "`\(suite)` is not a suite name (an XCTest class or Swift Testing suite type, e.g. MathTests)")
    }
    guard !item.contains("/") || (!test.isEmpty && !test.contains(where: \.isNewline)) else {
      throw ShardEntryError(id: id, reason: "a test is named after its suite (package:Target/Suite/test()), not empty")
    }
    self.init(package: package, target: target, part: excluded ? .allBut(item) : .suite(item))
  }

  /// A suite and the suites nested in it, as a test's identifier names them (`Outer.Inner`).
  static func isSuitePath(_ text: String) -> Bool {
    text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { isSuiteName(String($0)) }
  }

  /// A Swift type name: a letter or `_` first, then letters, digits and `_`.
  static func isSuiteName(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }
}

/// A `--targets` id that cannot be read: a usage error.
public struct ShardEntryError: RippleError, Equatable {
  public var id: String
  public var reason: String

  public init(id: String, reason: String) {
    self.id = id
    self.reason = reason
  }

  public var category: ErrorCategory { .usage }
  public var description: String { "--targets: `\(id)`: \(reason)." }
}

/// Which tests of one test target a run covers, from the entries that name it.
public enum SuiteScope: Sendable, Codable, Hashable {
  /// Only these top-level suites (sorted).
  case only([String])
  /// Every test but these suites' (sorted).
  case allBut([String])

  /// The scope of `entries` (all naming one target): nil when they run it whole. Entries of different kinds
  /// for one target (`T` with `T/S`, `T/S` with `T/-U`) contradict each other: an error naming them.
  public static func of(_ entries: [ShardEntry]) throws(ShardEntryError) -> SuiteScope? {
    var only: Set<String> = []
    var allBut: Set<String> = []
    var whole = false
    for entry in entries {
      switch entry.part {
      case .whole: whole = true
      case .suite(let name): only.insert(name)
      case .allBut(let name): allBut.insert(name)
      }
    }
    let kinds = [whole, !only.isEmpty, !allBut.isEmpty].filter { $0 }.count
    guard kinds <= 1 else {
      let names = Set(entries.map(\.description)).sorted().joined(separator: ", ")
      throw ShardEntryError(
        id: names,
        reason: "one target is named whole (package:Target), by its suites (/Suite) or by the suites it leaves out "
          + "(/-Suite), not in two of these ways at once")
    }
    if !only.isEmpty { return .only(only.sorted()) }
    if !allBut.isEmpty { return .allBut(allBut.sorted()) }
    return nil
  }

  /// The entries that name this scope of `package:target`.
  public func entries(package: String, target: String) -> [ShardEntry] {
    switch self {
    case .only(let names): names.map { ShardEntry(package: package, target: target, part: .suite($0)) }
    case .allBut(let names): names.map { ShardEntry(package: package, target: target, part: .allBut($0)) }
    }
  }
}

/// The anchored `swift test --filter` regular expression of test targets and suites.
///
/// `swift test` matches it against `Target.Class/testMethod` (XCTest) and `Target.Suite/test()`,
/// `Target.Outer/Inner/test()` or `Target.freeFunction()` (Swift Testing). A suite part ends in
/// `(/|\.|$)` so that `MathTests` does not also select `MathTestsExtra`; a remainder is a negative
/// look-ahead (`T\.(?!(A|B)(/|\.|$))`), which both XCTest's and Swift Testing's filters understand.
public enum SuiteFilter {
  /// `^(A|B)\.` when every target runs whole (the form from before suites), else one alternative per target:
  /// `^(A\.|B\.(S|U)(/|\.|$)|C\.(?!(V)(/|\.|$)))`.
  public static func pattern(targets: [String], scopes: [String: SuiteScope]) -> String {
    let names = Array(Set(targets)).sorted()
    guard names.contains(where: { scopes[$0] != nil }) else {
      return "^(" + names.map(escape).joined(separator: "|") + ")\\."
    }
    let parts = names.map { name -> String in
      let target = escape(name) + "\\."
      switch scopes[name] {
      case nil: return target
      case .only(let suites): return target + suiteGroup(suites)
      case .allBut(let suites): return target + "(?!" + suiteGroup(suites) + ")"
      }
    }
    return "^(" + parts.joined(separator: "|") + ")"
  }

  /// What a target's remainder leaves out, for `swift test --skip`: `^(C\.(V(/|\.|$)|S/t\(\)(/|$)))`; nil when
  /// no target runs as a remainder. Swift Testing runs a whole suite when the suite's own identifier matches a
  /// `--filter` (the look-ahead of `pattern` lets `C.S` through, and with it `S/t()`, which another shard runs),
  /// but skips exactly what `--skip` matches, as XCTest does: the remainder is `--filter` `C\.` less this.
  public static func skipPattern(targets: [String], scopes: [String: SuiteScope]) -> String? {
    let parts = Array(Set(targets)).sorted().compactMap { name -> String? in
      guard case .allBut(let items) = scopes[name] else { return nil }
      return escape(name) + "\\." + suiteGroup(items)
    }
    return parts.isEmpty ? nil : "^(" + parts.joined(separator: "|") + ")"
  }

  /// Suites only: `(S|U)(/|\.|$)`, the form from before tests. With tests: one alternative each, a test
  /// ending where its identifier does (`(/|$)`, as `TestFilter.tests`): `(S(/|\.|$)|U/t\(\)(/|$))`.
  static func suiteGroup(_ items: [String]) -> String {
    let sorted = items.sorted()
    guard sorted.contains(where: { $0.contains("/") }) else {
      return "(" + sorted.map(escape).joined(separator: "|") + ")(/|\\.|$)"
    }
    return "("
      + sorted.map { $0.contains("/") ? escapeTest($0) + "(/|$)" : escape($0) + "(/|\\.|$)" }.joined(separator: "|")
      + ")"
  }

  /// A test `Outer.Inner/t()` as a pattern: results join nested suites with `.`, Swift Testing's identifiers
  /// with `/` (`T.Outer/Inner/t()`), XCTest has none; so the suites' separators match either: `Outer[./]Inner/t\(\)`.
  public static func escapeTest(_ item: String) -> String {
    guard let slash = item.firstIndex(of: "/") else { return escape(item) }
    let suites = item[..<slash].split(separator: ".", omittingEmptySubsequences: false).map { escape(String($0)) }
    return suites.joined(separator: "[./]") + escape(String(item[slash...]))
  }

  /// Escapes every character with a meaning in an ICU / Swift regular expression.
  public static func escape(_ text: String) -> String {
    let special: Set<Character> = ["\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "^", "$", "|"]
    var out = ""
    for c in text {
      if special.contains(c) { out.append("\\") }
      out.append(c)
    }
    return out
  }
}
