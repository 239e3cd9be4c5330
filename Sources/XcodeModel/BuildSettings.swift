/// One assignment of a build setting: a key of a configuration's `buildSettings` or a line of an
/// `.xcconfig` file (docs/DESIGN.md, rule 12). `conditional`: written with a condition
/// (`OTHER_LDFLAGS[sdk=iphoneos*]`), which applies to some builds only.
public struct BuildSettingAssignment: Sendable, Hashable {
  public var name: String
  public var conditional: Bool
  public var value: String

  public init(name: String, conditional: Bool, value: String) {
    self.name = name
    self.conditional = conditional
    self.value = value
  }

  /// `NAME` or `NAME[cond=value]…` → (name, conditional); nil when the key is not a setting name.
  static func key(_ text: Substring) -> (name: String, conditional: Bool)? {
    let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    guard let first = name.first, first.isLetter || first == "_" else { return nil }
    var rest = text.dropFirst(name.count)
    var conditional = false
    while rest.first == "[" {
      guard let close = rest.firstIndex(of: "]") else { return nil }
      rest = rest[rest.index(after: close)...]
      conditional = true
    }
    guard rest.allSatisfy(\.isWhitespace) else { return nil }
    return (String(name), conditional)
  }

  /// The assignments of a configuration's `buildSettings`: unconditional keys first (a dictionary has no
  /// order), so that conditional ones are alternatives on top of them. A list value (`("-framework", X)`)
  /// is its words joined by spaces, as Xcode reads it.
  public static func assignments(of settings: PlistDictionary) -> [BuildSettingAssignment] {
    var plain: [BuildSettingAssignment] = []
    var conditional: [BuildSettingAssignment] = []
    for (key, value) in settings {
      guard let parsed = Self.key(key[...]) else { continue }
      let text: String
      switch value {
      case .string(let string): text = string
      case .array(let items): text = items.compactMap(\.string).map(BuildSettingWords.quoted).joined(separator: " ")
      case .dictionary: continue
      }
      let assignment = BuildSettingAssignment(name: parsed.name, conditional: parsed.conditional, value: text)
      if parsed.conditional { conditional.append(assignment) } else { plain.append(assignment) }
    }
    let order = { (a: BuildSettingAssignment, b: BuildSettingAssignment) in (a.name, a.value) < (b.name, b.value) }
    return plain.sorted(by: order) + conditional.sorted(by: order)
  }
}

/// The build settings one configuration of a target sees, lowest level first: the project's xcconfig,
/// the project's settings, the target's xcconfig, the target's settings (Xcode's levels), each
/// assignment in file order. Evaluation keeps every value a setting may take: the last unconditional
/// assignment and every conditional one above it (a condition Ripple does not evaluate may hold), each
/// with `$(inherited)` the value below it.
public struct BuildSettings {
  public var assignments: [BuildSettingAssignment]
  /// Values Xcode defines itself (`TARGET_NAME`, `PROJECT_NAME`, `SRCROOT`, …), used when no level sets them.
  public var builtins: [String: String]

  /// Values already worked out, by name and level: each is evaluated once, so settings that refer to
  /// each other many times over cost their count, not the number of paths through them.
  private let memo = Memo()

  public init(assignments: [BuildSettingAssignment], builtins: [String: String]) {
    self.assignments = assignments
    self.builtins = builtins
  }

  private final class Memo {
    var values: [String: [Value]?] = [:]
    var evaluating: Set<String> = []
  }

  /// One value of a setting with its variables expanded; `unresolved`: the variables neither set nor
  /// known to Ripple (expanded to nothing, as Xcode expands an undefined setting).
  public struct Value: Sendable, Hashable {
    public var text: String
    public var unresolved: [String]

    public init(text: String, unresolved: [String]) {
      self.text = text
      self.unresolved = unresolved
    }
  }

  /// Expansions of a value beyond this many are dropped (conditional settings multiply).
  static let limit = 32

  /// Every value `name` may take; empty when nothing sets it and it is no built-in.
  public func values(_ name: String) -> [Value] { values(name, below: assignments.count, depth: 0) ?? [] }

  /// Nil: nothing at or below `end` sets `name`.
  private func values(_ name: String, below end: Int, depth: Int) -> [Value]? {
    let key = "\(end) \(name)"
    if let known = memo.values[key] { return known }
    // A setting that refers to itself (through others) cannot be resolved, as in Xcode.
    guard depth < 64, memo.evaluating.insert(key).inserted else { return [Value(text: "", unresolved: [name])] }
    let result = evaluate(name, below: end, depth: depth)
    memo.evaluating.remove(key)
    memo.values[key] = .some(result)
    return result
  }

  private func evaluate(_ name: String, below end: Int, depth: Int) -> [Value]? {
    var found: [Int] = []
    var index = end - 1
    var complete = false
    while index >= 0 {
      if assignments[index].name == name {
        found.append(index)
        if !assignments[index].conditional {
          complete = true
          break
        }
      }
      index -= 1
    }
    var result: [Value] = []
    for index in found {
      result += expand(assignments[index].value, name: name, inheritedBelow: index, depth: depth + 1)
    }
    if !complete {
      if let builtin = builtins[name] {
        result.append(Value(text: builtin, unresolved: []))
      } else if found.isEmpty {
        return nil
      } else {
        result.append(Value(text: "", unresolved: []))
      }
    }
    return Self.unique(result)
  }

  /// `text` with `$(VAR)`, `${VAR}` and `$(inherited)` expanded: every combination of the values met.
  public func expand(_ text: String) -> [Value] { expand(text, name: "", inheritedBelow: 0, depth: 0) }

  private func expand(_ text: String, name: String, inheritedBelow: Int, depth: Int) -> [Value] {
    var results = [Value(text: "", unresolved: [])]
    var literal = ""
    let characters = Array(text)
    var index = 0
    func append(_ options: [Value]) {
      var next: [Value] = []
      for result in results {
        for option in options where next.count < Self.limit {
          next.append(
            Value(text: result.text + literal + option.text, unresolved: result.unresolved + option.unresolved))
        }
      }
      results = next
      literal = ""
    }
    while index < characters.count {
      let character = characters[index]
      if character == "$", index + 1 < characters.count, characters[index + 1] == "(" || characters[index + 1] == "{",
        let close = Self.closing(characters, from: index + 1)
      {
        let reference = String(characters[(index + 2)..<close])
        append(lookup(reference, name: name, inheritedBelow: inheritedBelow, depth: depth))
        index = close + 1
      } else {
        literal.append(character)
        index += 1
      }
    }
    append([Value(text: "", unresolved: [])])
    return Self.unique(results)
  }

  /// The index of the bracket closing the one at `open`, nested ones counted.
  private static func closing(_ characters: [Character], from open: Int) -> Int? {
    let opening = characters[open]
    let closing: Character = opening == "(" ? ")" : "}"
    var level = 0
    for index in open..<characters.count {
      if characters[index] == opening {
        level += 1
      } else if characters[index] == closing {
        level -= 1
        if level == 0 { return index }
      }
    }
    return nil
  }

  /// The values of one reference: `inherited`, `NAME`, `NAME:operator…`, a name built of other references.
  private func lookup(_ reference: String, name: String, inheritedBelow: Int, depth: Int) -> [Value] {
    guard depth < 64 else { return [Value(text: "", unresolved: [reference])] }
    var results: [Value] = []
    // A name that is itself made of references (`$(CONFIG_$(CONFIGURATION))`): each expansion of it.
    for spelled in expand(reference, name: name, inheritedBelow: inheritedBelow, depth: depth + 1) {
      let parts = spelled.text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      let variable = parts[0]
      var values: [Value]
      if variable == "inherited" {
        values = self.values(name, below: inheritedBelow, depth: depth + 1) ?? [Value(text: "", unresolved: [])]
      } else if let found = self.values(variable, below: assignments.count, depth: depth + 1) {
        values = found
      } else {
        values = [Value(text: "", unresolved: [variable])]
      }
      for operation in parts.dropFirst() {
        values = values.map { Self.apply(operation, to: $0) }
      }
      results += values.map { Value(text: $0.text, unresolved: spelled.unresolved + $0.unresolved) }
    }
    return Self.unique(results)
  }

  /// Xcode's value operators (`$(NAME:lower)`, `$(NAME:default=x)`, `$(PATH:file)`, …); an unknown one
  /// leaves the value unresolved.
  private static func apply(_ operation: String, to value: Value) -> Value {
    var value = value
    let text = value.text
    let last = text.split(separator: "/").last.map(String.init) ?? ""
    switch operation {
    case _ where operation.hasPrefix("default="):
      if text.isEmpty {
        value.text = String(operation.dropFirst(8))
        value.unresolved = []
      }
    case "lower": value.text = text.lowercased()
    case "upper": value.text = text.uppercased()
    case "file": value.text = last
    case "dir": value.text = text.contains("/") ? String(text[..<text.lastIndex(of: "/")!]) + "/" : "./"
    case "base": value.text = last.contains(".") ? String(last[..<last.lastIndex(of: ".")!]) : last
    case "suffix": value.text = last.contains(".") ? String(last[last.lastIndex(of: ".")!...]) : ""
    case "standardizepath": value.text = text
    case "identifier", "c99extidentifier":
      value.text = String(text.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    case "rfc1034identifier":
      value.text = String(text.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    default: value.unresolved.append("operator \(operation)")
    }
    return value
  }

  private static func unique(_ values: [Value]) -> [Value] {
    var seen: Set<Value> = []
    return values.filter { seen.insert($0).inserted }
  }
}

/// Splits a list setting into words as Xcode does: whitespace separates, quotes and backslashes escape.
public enum BuildSettingWords {
  public static func split(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in text {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
        inWord = true
      } else if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
      } else if character == "\"" || character == "'" {
        quote = character
        inWord = true
      } else if character.isWhitespace {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(character)
        inWord = true
      }
    }
    if inWord { words.append(current) }
    return words
  }

  /// A word written so that `split` gives it back.
  static func quoted(_ word: String) -> String {
    word.isEmpty || word.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "\\" })
      ? "\"" + String(word.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] }) + "\""
      : word
  }
}

/// The products a target's `OTHER_LDFLAGS` names (Xcode's "Find Implicit Dependencies" follows them too):
/// `-framework Name` and its variants (`-weak_framework`, `-reexport_framework`, `-lazy_framework`,
/// `-upward_framework`, `-needed_framework`, `-merge_framework`) name `Name.framework`; `-lName` (or
/// `-l Name`) and its variants (`-weak-l`, `-reexport-l`, `-lazy-l`, `-upward-l`, `-needed-l`,
/// `-merge-l`) name `libName.a` and `libName.dylib`; a word that is a path to a product names its file.
/// `-Xlinker ARG` and `-Wl,ARG,…` are unwrapped first.
public enum LinkerFlags {
  public struct Use: Sendable, Hashable {
    /// The product's file name: `Library.framework`, `libLibrary.a`.
    public var product: String
    /// The flag as the linker gets it: `-framework Library`, `-lLibrary`.
    public var flag: String

    public init(product: String, flag: String) {
      self.product = product
      self.flag = flag
    }
  }

  static let frameworkFlags: Set<String> = [
    "-framework", "-weak_framework", "-reexport_framework", "-lazy_framework", "-upward_framework",
    "-needed_framework", "-merge_framework",
  ]
  static let libraryPrefixes = ["-weak-l", "-reexport-l", "-lazy-l", "-upward-l", "-needed-l", "-merge-l", "-l"]
  static let productSuffixes = [".framework", ".a", ".dylib", ".so"]

  public static func uses(in words: [String]) -> [Use] {
    // What the linker sees: `-Xlinker X` is X, `-Wl,A,B` is A B.
    var linker: [String] = []
    var index = 0
    while index < words.count {
      let word = words[index]
      if word == "-Xlinker", index + 1 < words.count {
        linker.append(words[index + 1])
        index += 2
        continue
      }
      if word.hasPrefix("-Wl,") {
        linker += word.dropFirst(4).split(separator: ",").map(String.init)
      } else {
        linker.append(word)
      }
      index += 1
    }
    var uses: [Use] = []
    index = 0
    while index < linker.count {
      let word = linker[index]
      defer { index += 1 }
      if frameworkFlags.contains(word), index + 1 < linker.count {
        index += 1
        // `-framework Name,suffix` links Name_suffix if present, else Name: both are candidates.
        let parts = linker[index].split(separator: ",", maxSplits: 1).map(String.init)
        guard let name = parts.first, !name.isEmpty else { continue }
        let flag = word + " " + linker[index]
        uses.append(Use(product: name + ".framework", flag: flag))
        if parts.count == 2 { uses.append(Use(product: name + parts[1] + ".framework", flag: flag)) }
        continue
      }
      if word == "-l", index + 1 < linker.count {
        index += 1
        uses += libraries(linker[index], flag: "-l " + linker[index])
        continue
      }
      if let prefix = libraryPrefixes.first(where: { word.hasPrefix($0) && word.count > $0.count }) {
        uses += libraries(String(word.dropFirst(prefix.count)), flag: word)
        continue
      }
      if !word.hasPrefix("-"), let file = word.split(separator: "/").last.map(String.init),
        productSuffixes.contains(where: { file.hasSuffix($0) && file.count > $0.count })
      {
        uses.append(Use(product: file, flag: word))
      }
    }
    return uses
  }

  /// `-lName`: `libName.a` or `libName.dylib` (`-l:file` names the file itself).
  private static func libraries(_ name: String, flag: String) -> [Use] {
    if name.hasPrefix(":") { return [Use(product: String(name.dropFirst()), flag: flag)] }
    return [Use(product: "lib\(name).a", flag: flag), Use(product: "lib\(name).dylib", flag: flag)]
  }
}
