import SwiftParser
import SwiftSyntax

/// One small change inside a function body: a flipped comparison or arithmetic operator, a changed integer or
/// boolean literal, a dropped call or assignment statement.
struct Mutation: Sendable, Hashable {
  /// Relative to the package root.
  var file: String
  var line: Int
  var utf8Offset: Int
  var utf8Length: Int
  var replacement: String
  var description: String

  func apply(to text: String) -> String {
    var bytes = Array(text.utf8)
    bytes.replaceSubrange(utf8Offset..<utf8Offset + utf8Length, with: Array(replacement.utf8))
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Finds mutation sites in function, initializer and accessor bodies with swift-syntax.
enum MutationSites {
  static let operators: [String: String] = [
    "<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "+": "-", "-": "+", "&&": "||", "||": "&&",
    "+=": "-=", "-=": "+=",
  ]

  static func find(in text: String, file: String) -> [Mutation] {
    let tree = Parser.parse(source: text)
    let converter = SourceLocationConverter(fileName: file, tree: tree)
    var found: [Mutation] = []
    func add(_ node: some SyntaxProtocol, _ replacement: String, _ what: String) {
      let start = node.positionAfterSkippingLeadingTrivia
      let line = converter.location(for: start).line
      found.append(
        Mutation(
          file: file, line: line, utf8Offset: start.utf8Offset, utf8Length: node.trimmedLength.utf8Length,
          replacement: replacement, description: "\(file):\(line): \(what)"))
    }
    for token in tree.tokens(viewMode: .sourceAccurate) where isInBody(Syntax(token)) {
      switch token.tokenKind {
      case .binaryOperator(let op):
        if let flipped = operators[op] { add(token, flipped, "`\(op)` → `\(flipped)`") }
      case .integerLiteral(let digits):
        if let value = Int(digits) { add(token, String(value + 1), "\(digits) → \(value + 1)") }
      case .keyword(.true): add(token, "false", "true → false")
      case .keyword(.false): add(token, "true", "false → true")
      default: break
      }
    }
    let statements = StatementCollector(viewMode: .sourceAccurate)
    statements.walk(tree)
    for item in statements.items where isInBody(Syntax(item)) {
      add(item, "", "dropped `\(item.trimmedDescription.prefix(50))`")
    }
    return found
  }

  /// Inside the body of a function, initializer, deinitializer, accessor or computed property's getter.
  static func isInBody(_ node: Syntax) -> Bool {
    var current = node.parent
    while let parent = current {
      if parent.is(AccessorBlockSyntax.self) { return true }
      if let block = parent.as(CodeBlockSyntax.self), let owner = block.parent,
        owner.is(FunctionDeclSyntax.self) || owner.is(InitializerDeclSyntax.self)
          || owner.is(DeinitializerDeclSyntax.self) || owner.is(AccessorDeclSyntax.self)
      {
        return true
      }
      current = parent.parent
    }
    return false
  }
}

/// Statements that are a call or an assignment, which can be dropped and still compile more often than not.
private final class StatementCollector: SyntaxVisitor {
  var items: [CodeBlockItemSyntax] = []

  override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
    if node.item.is(FunctionCallExprSyntax.self) {
      items.append(node)
    } else if let infix = node.item.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self) {
      items.append(node)
    } else if let sequence = node.item.as(SequenceExprSyntax.self),
      sequence.elements.contains(where: { $0.is(AssignmentExprSyntax.self) })
    {
      items.append(node)
    }
    return .visitChildren
  }
}
