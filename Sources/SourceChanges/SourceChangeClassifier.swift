import SwiftParser
import SwiftSyntax

/// Classifies the change between two texts of one Swift file (pure).
///
/// Both texts are parsed and their declarations walked in parallel. Each declaration is compared by its shape: its
/// tokens (so comments and whitespace never count) with every body replaced by a placeholder. Equal shapes
/// everywhere make a bodies-only change, whose changed functions are the bodies whose tokens differ; the first
/// unequal shape is a declaration change. A body counts as a function body only where a change to it cannot reach
/// other code without running it: the body of an `@inlinable` (or `@_transparent`, `@_alwaysEmitIntoClient`,
/// `@backDeployed`) declaration may be copied into other modules, and a declaration with an attribute that may be a
/// macro may expand from its body, so a body change there is a declaration change. So is a change to `==`,
/// `hash(into:)` or `hashValue`: a dictionary or set calls `==` only when two hashes meet, which depends on the
/// process's random hash seed, so a map made in one run may miss a test that calls it in another (seen in the
/// mutation proof on Yams). Stored properties' initial values, closures among them, are part of the declaration.
public enum SourceChangeClassifier {
  public static func classify(old: String, new: String) -> SourceChange {
    let oldTree = Parser.parse(source: old)
    let newTree = Parser.parse(source: new)
    if let problem = ParseProblem.first(in: oldTree) { return .unparseable("the old text does not parse: \(problem)") }
    if let problem = ParseProblem.first(in: newTree) { return .unparseable("the new text does not parse: \(problem)") }
    var walk = ParallelWalk(
      old: SourceLocationConverter(fileName: "old", tree: oldTree),
      new: SourceLocationConverter(fileName: "new", tree: newTree))
    do {
      try walk.compare(
        oldTree.statements.map { Syntax($0.item) }, newTree.statements.map { Syntax($0.item) }, scope: [])
    } catch {
      return .declarations(DeclarationChange(reason: error.reason, line: error.line))
    }
    guard walk.addedTests.isEmpty && walk.removedTests.isEmpty else {
      let first = (walk.addedTests + walk.removedTests).map(\.line).min() ?? 1
      let names = (walk.addedTests.map { "`\($0.name)` added" } + walk.removedTests.map { "`\($0.name)` removed" })
      return .declarations(
        DeclarationChange(
          reason: "test functions changed: " + names.joined(separator: ", "), line: first,
          testsOnly: TestFunctionChanges(
            added: walk.addedTests.map(\.name), removed: walk.removedTests.map(\.name), changedBodies: walk.changed)))
    }
    return .bodiesOnly(walk.changed)
  }
}

/// The first declaration-level difference, thrown to end the walk.
struct FoundDeclarationChange: Error {
  var reason: String
  var line: Int
}

/// Walks two lists of declarations (or top-level statements) in parallel.
struct ParallelWalk {
  let old: SourceLocationConverter
  let new: SourceLocationConverter
  var changed: [ChangedFunction] = []
  var addedTests: [(name: String, line: Int)] = []
  var removedTests: [(name: String, line: Int)] = []

  init(old: SourceLocationConverter, new: SourceLocationConverter) {
    self.old = old
    self.new = new
  }

  mutating func compare(_ oldItems: [Syntax], _ newItems: [Syntax], scope: [String]) throws(FoundDeclarationChange) {
    let oldMembers = oldItems.map { Member($0, scope: scope) }
    let newMembers = newItems.map { Member($0, scope: scope) }
    if oldMembers.map(\.shape) == newMembers.map(\.shape) {
      for (o, n) in zip(oldMembers, newMembers) { try compareMatched(o, n) }
      return
    }
    // Test functions added or removed (a rename is both) leave the other members paired as before.
    let oldShapes = Set(oldMembers.map(\.shape))
    let newShapes = Set(newMembers.map(\.shape))
    let removed = oldMembers.filter { $0.isTestFunction && !newShapes.contains($0.shape) }
    let added = newMembers.filter { $0.isTestFunction && !oldShapes.contains($0.shape) }
    let oldKept = oldMembers.filter { !($0.isTestFunction && !newShapes.contains($0.shape)) }
    let newKept = newMembers.filter { !($0.isTestFunction && !oldShapes.contains($0.shape)) }
    if !(removed.isEmpty && added.isEmpty) && oldKept.map(\.shape) == newKept.map(\.shape) {
      removedTests += removed.map { ($0.qualifiedName, line(of: $0.node, in: old)) }
      addedTests += added.map { ($0.qualifiedName, line(of: $0.node, in: new)) }
      for (o, n) in zip(oldKept, newKept) { try compareMatched(o, n) }
      return
    }
    throw firstDifference(oldMembers, newMembers)
  }

  /// Two members of equal shape: their bodies, or their own members.
  mutating func compareMatched(_ o: Member, _ n: Member) throws(FoundDeclarationChange) {
    switch (o.kind, n.kind) {
    case (.container(let oldItems), .container(let newItems)):
      try compare(oldItems, newItems, scope: o.scope + [o.name])
    case (.conditional(let oldClauses), .conditional(let newClauses)):
      for (oldClause, newClause) in zip(oldClauses, newClauses) { try compare(oldClause, newClause, scope: o.scope) }
    case (.bodies(let oldBodies), .bodies(let newBodies)):
      for (ob, nb) in zip(oldBodies, newBodies) where ob.text != nb.text {
        let name = (o.scope + [ob.name]).joined(separator: ".")
        let newLine = line(of: nb.owner, in: new)
        if let inlined = ob.attributes.first(where: InlineAttributes.names.contains) {
          throw FoundDeclarationChange(
            reason: "the body of `@\(inlined)` `\(name)` changed: other modules may have inlined it", line: newLine)
        }
        if ob.name.hasPrefix("==(") || ob.name == "hash(into:)" || ob.name == "hashValue.get" {
          throw FoundDeclarationChange(
            reason: "the equality or hashing `\(name)` changed: whether a test calls it depends on its run's hash seed",
            line: newLine)
        }
        if let macro = ob.attributes.first(where: { !KnownAttributes.isKnown($0) }) {
          throw FoundDeclarationChange(
            reason: "the body of `\(name)` changed under `@\(macro)`, which may be a macro that expands from it",
            line: newLine)
        }
        changed.append(
          ChangedFunction(name: name, newLines: lines(of: nb.owner, in: new), oldLines: lines(of: ob.owner, in: old)))
      }
    default:
      break  // equal shapes have equal kinds
    }
  }

  func firstDifference(_ oldMembers: [Member], _ newMembers: [Member]) -> FoundDeclarationChange {
    let common = min(oldMembers.count, newMembers.count)
    let index = (0..<common).first { oldMembers[$0].shape != newMembers[$0].shape } ?? common
    let oldShapes = oldMembers.map(\.shape)
    let newShapes = newMembers.map(\.shape)
    guard index < oldMembers.count else {
      return FoundDeclarationChange(
        reason: "\(newMembers[index].title) was added", line: line(of: newMembers[index].node, in: new))
    }
    guard index < newMembers.count else {
      return FoundDeclarationChange(
        reason: "\(oldMembers[index].title) was removed", line: line(of: oldMembers[index].node, in: old))
    }
    let o = oldMembers[index]
    let n = newMembers[index]
    if o.identity == n.identity {
      return FoundDeclarationChange(reason: n.changeDescription, line: line(of: n.node, in: new))
    }
    let oldGone = !newShapes.contains(o.shape) && !newMembers.contains { $0.identity == o.identity }
    let newFresh = !oldShapes.contains(n.shape) && !oldMembers.contains { $0.identity == n.identity }
    if oldGone && newFresh {
      return FoundDeclarationChange(
        reason: "\(o.title) was renamed or replaced by \(n.title)", line: line(of: n.node, in: new))
    }
    if oldShapes[(index + 1)...].contains(n.shape) || oldGone {
      return FoundDeclarationChange(reason: "\(o.title) was removed", line: line(of: n.node, in: new))
    }
    return FoundDeclarationChange(reason: "\(n.title) was added", line: line(of: n.node, in: new))
  }

  func line(of node: Syntax, in converter: SourceLocationConverter) -> Int {
    converter.location(for: node.positionAfterSkippingLeadingTrivia).line
  }

  func lines(of node: Syntax, in converter: SourceLocationConverter) -> LineRange {
    LineRange(
      converter.location(for: node.positionAfterSkippingLeadingTrivia).line,
      converter.location(for: node.endPositionBeforeTrailingTrivia).line)
  }
}

/// Attributes whose declaration's body may be emitted into other modules.
enum InlineAttributes {
  static let names: Set<String> = ["inlinable", "_transparent", "_alwaysEmitIntoClient", "backDeployed"]
}

/// Attributes of the language (and Swift Testing's `@Test`, whose peer expansion never reads the body). Any other
/// attribute on a function may be a macro, which may expand from the body: a body change under it is not confined.
enum KnownAttributes {
  static let names: Set<String> = [
    "available", "discardableResult", "inline", "inlinable", "usableFromInline", "objc", "nonobjc", "objcMembers",
    "MainActor", "Sendable", "preconcurrency", "warn_unqualified_access", "IBAction", "IBOutlet", "IBSegueAction",
    "NSManaged", "GKInspectable", "differentiable", "derivative", "transpose", "noDerivative", "dynamicCallable",
    "frozen", "unknown", "escaping", "autoclosure", "convention", "concurrent", "isolated", "unsafe", "safe",
    "Test", "Testing.Test", "storageRestrictions", "backDeployed", "exclusivity", "export", "c", "abi", "lifetime",
    "_spi", "_disfavoredOverload", "_implements", "_specialize", "_effects", "_optimize", "_semantics",
    "_silgen_name", "_cdecl", "_dynamicReplacement", "_unsafeInheritExecutor", "_transparent",
    "_alwaysEmitIntoClient", "_borrowed", "_hasStorage", "_nonoverride", "_lifetime", "_used", "_section",
    "_noImplicitCopy", "_eagerMove", "_noEagerMove", "_marker", "_unavailableFromAsync", "_backDeploy",
    "_originallyDefinedIn",
  ]

  /// Known, or a global actor by the usual naming (`@MyActor`).
  static func isKnown(_ name: String) -> Bool { names.contains(name) || name.hasSuffix("Actor") }
}
