import SwiftSyntax

/// One declaration (or top-level statement) as the walk compares it: its shape, and what lies below it.
struct Member {
  enum Kind {
    /// A type, protocol or extension: its members are compared in turn.
    case container([Syntax])
    /// `#if`: each clause's members are compared in turn (its conditions are in the shape).
    case conditional([[Syntax]])
    /// Something with bodies: a function, initializer, subscript or property with accessors.
    case bodies([Body])
    case plain
  }

  /// A body left out of the shape, compared on its own.
  struct Body {
    /// `parse(_:)`, `count.get`.
    var name: String
    /// The declaration whose lines a coverage map is compared with.
    var owner: Syntax
    var text: String
    var attributes: [String]
  }

  let node: Syntax
  let scope: [String]
  let name: String
  /// Kind and name: two members with one identity are one declaration that changed.
  let identity: String
  /// Tokens, bodies and members replaced by a placeholder.
  let shape: String
  let kind: Kind
  let isTestFunction: Bool
  /// Backquoted, for sentences: "`Parser.parse(_:)`", "`extension Array`".
  let title: String
  /// Why a change to this declaration is not confined to a body.
  let changeDescription: String

  var qualifiedName: String { (scope + [name]).joined(separator: ".") }

  init(_ node: Syntax, scope: [String]) {
    self.node = node
    self.scope = scope
    let qualified = { (name: String) in (scope + [name]).joined(separator: ".") }
    var excluded: [Syntax] = []
    var isTest = false
    if let group = node.asProtocol(DeclGroupSyntax.self) {
      let keyword = group.introducer.text
      let typeName = Self.typeName(node)
      name = typeName
      identity = keyword + " " + qualified(typeName)
      title = "`\(keyword) \(qualified(typeName))`"
      changeDescription =
        keyword == "extension"
        ? "\(title) changed (its conformances, constraints, attributes or modifiers)"
        : "the declaration of \(title) changed (its attributes, modifiers, generic parameters, conformances or inheritance)"
      excluded = [Syntax(group.memberBlock.members)]
      kind = .container(group.memberBlock.members.map { Syntax($0.decl) })
    } else if let conditional = node.as(IfConfigDeclSyntax.self) {
      name = "#if"
      identity = "#if"
      title = "an `#if` block"
      changeDescription = "an `#if` condition or its declarations changed"
      var clauses: [[Syntax]] = []
      for clause in conditional.clauses {
        switch clause.elements {
        case .decls(let list):
          excluded.append(Syntax(list))
          clauses.append(list.map { Syntax($0.decl) })
        case .statements(let list):
          excluded.append(Syntax(list))
          clauses.append(list.map { Syntax($0.item) })
        default:
          clauses.append([])
        }
      }
      kind = .conditional(clauses)
    } else if let function = node.as(FunctionDeclSyntax.self) {
      // An operator's parameters have no argument labels: `==(_:_:)`.
      let isOperator: Bool
      switch function.name.tokenKind {
      case .binaryOperator, .prefixOperator, .postfixOperator: isOperator = true
      default: isOperator = false
      }
      let labels = function.signature.parameterClause.parameters.map { (isOperator ? "_" : $0.firstName.text) + ":" }
        .joined()
      name = function.name.text + "(" + labels + ")"
      identity = "func " + qualified(name)
      title = "`\(qualified(name))`"
      changeDescription =
        "the declaration of \(title) changed (its signature, attributes, modifiers or generic constraints)"
      let attributes = Self.attributeNames(function.attributes)
      isTest =
        attributes.contains("Test") || attributes.contains("Testing.Test")
        || (!scope.isEmpty && function.name.text.hasPrefix("test")
          && function.signature.parameterClause.parameters.isEmpty)
      let bodyName = name
      if let body = function.body {
        excluded = [Syntax(body)]
        kind = .bodies([Body(name: bodyName, owner: node, text: Self.text(Syntax(body)), attributes: attributes)])
      } else {
        kind = .bodies([])
      }
    } else if let initializer = node.as(InitializerDeclSyntax.self) {
      let labels = initializer.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined()
      name = "init(" + labels + ")"
      identity = "init " + qualified(name)
      title = "`\(qualified(name))`"
      changeDescription = "the declaration of \(title) changed (its signature, attributes or modifiers)"
      let attributes = Self.attributeNames(initializer.attributes)
      let bodyName = name
      if let body = initializer.body {
        excluded = [Syntax(body)]
        kind = .bodies([Body(name: bodyName, owner: node, text: Self.text(Syntax(body)), attributes: attributes)])
      } else {
        kind = .bodies([])
      }
    } else if let deinitializer = node.as(DeinitializerDeclSyntax.self) {
      name = "deinit"
      identity = "deinit " + qualified(name)
      title = "`\(qualified(name))`"
      changeDescription = "the declaration of \(title) changed"
      let attributes = Self.attributeNames(deinitializer.attributes)
      let bodyName = name
      if let body = deinitializer.body {
        excluded = [Syntax(body)]
        kind = .bodies([Body(name: bodyName, owner: node, text: Self.text(Syntax(body)), attributes: attributes)])
      } else {
        kind = .bodies([])
      }
    } else if let subscriptDecl = node.as(SubscriptDeclSyntax.self) {
      let labels = subscriptDecl.parameterClause.parameters.map {
        ($0.secondName == nil ? "_" : $0.firstName.text) + ":"
      }.joined()
      name = "subscript(" + labels + ")"
      identity = "subscript " + qualified(name)
      title = "`\(qualified(name))`"
      changeDescription = "the declaration of \(title) changed (its signature, accessors, attributes or modifiers)"
      var bodies: [Body] = []
      if let block = subscriptDecl.accessorBlock {
        Self.accessorBodies(
          block, name: name, owner: node, attributes: Self.attributeNames(subscriptDecl.attributes),
          into: &bodies, excluded: &excluded)
      }
      kind = .bodies(bodies)
    } else if let variable = node.as(VariableDeclSyntax.self) {
      let names = variable.bindings.map { $0.pattern.trimmedDescription }
      name = names.joined(separator: ", ")
      identity = variable.bindingSpecifier.text + " " + qualified(name)
      title = "`\(qualified(name))`"
      let attributes = Self.attributeNames(variable.attributes)
      var bodies: [Body] = []
      var computed = true
      for binding in variable.bindings {
        guard let block = binding.accessorBlock else {
          computed = false
          continue
        }
        if case .accessors(let list) = block.accessors,
          !list.contains(where: {
            ["get", "set", "_read", "_modify", "read", "modify"].contains($0.accessorSpecifier.text)
          })
        {
          computed = false  // observers: a stored property
        }
        Self.accessorBodies(
          block, name: binding.pattern.trimmedDescription, owner: Syntax(binding), attributes: attributes,
          into: &bodies, excluded: &excluded)
      }
      let isStatic = variable.modifiers.contains { ["static", "class"].contains($0.name.text) }
      changeDescription =
        computed
        ? "the declaration of the computed property \(title) changed (its type, accessors, attributes or modifiers)"
        : scope.isEmpty || isStatic
          ? "the global or static variable \(title) changed (its type, attributes, modifiers or initial value)"
          : "the stored property \(title) changed (its type, attributes, modifiers or initial value)"
      kind = .bodies(bodies)
    } else {
      let described = Self.describePlain(node)
      name = described.name
      identity = described.identity
      title = described.title
      changeDescription = described.change
      kind = .plain
    }
    isTestFunction = isTest
    shape = Self.text(node, excluding: excluded)
  }

  /// The bodies of a property's or subscript's accessors (an implicit getter is `get`).
  static func accessorBodies(
    _ block: AccessorBlockSyntax, name: String, owner: Syntax, attributes: [String], into bodies: inout [Body],
    excluded: inout [Syntax]
  ) {
    switch block.accessors {
    case .getter(let items):
      excluded.append(Syntax(items))
      bodies.append(Body(name: name + ".get", owner: owner, text: text(Syntax(items)), attributes: attributes))
    case .accessors(let list):
      for accessor in list {
        guard let body = accessor.body else { continue }
        excluded.append(Syntax(body))
        bodies.append(
          Body(
            name: name + "." + accessor.accessorSpecifier.text, owner: Syntax(accessor), text: text(Syntax(body)),
            attributes: attributes + attributeNames(accessor.attributes)))
      }
    }
  }

  static func typeName(_ node: Syntax) -> String {
    if let decl = node.as(ExtensionDeclSyntax.self) { return decl.extendedType.trimmedDescription }
    if let decl = node.as(StructDeclSyntax.self) { return decl.name.text }
    if let decl = node.as(ClassDeclSyntax.self) { return decl.name.text }
    if let decl = node.as(EnumDeclSyntax.self) { return decl.name.text }
    if let decl = node.as(ActorDeclSyntax.self) { return decl.name.text }
    if let decl = node.as(ProtocolDeclSyntax.self) { return decl.name.text }
    return "?"
  }

  static func attributeNames(_ list: AttributeListSyntax) -> [String] {
    list.compactMap { element in
      guard case .attribute(let attribute) = element else { return nil }
      return attribute.attributeName.trimmedDescription
    }
  }

  static func describePlain(_ node: Syntax) -> (name: String, identity: String, title: String, change: String) {
    if let importDecl = node.as(ImportDeclSyntax.self) {
      let path = importDecl.path.trimmedDescription
      return (path, "import " + path, "`import \(path)`", "an import changed: `import \(path)`")
    }
    if let alias = node.as(TypeAliasDeclSyntax.self) {
      let name = alias.name.text
      return (name, "typealias " + name, "`typealias \(name)`", "the type alias `\(name)` changed")
    }
    if let associated = node.as(AssociatedTypeDeclSyntax.self) {
      let name = associated.name.text
      return (name, "associatedtype " + name, "`associatedtype \(name)`", "the associated type `\(name)` changed")
    }
    if let enumCase = node.as(EnumCaseDeclSyntax.self) {
      let name = enumCase.elements.map { $0.name.text }.joined(separator: ", ")
      return (name, "case " + name, "`case \(name)`", "the enum case `\(name)` changed")
    }
    if let operatorDecl = node.as(OperatorDeclSyntax.self) {
      let name = operatorDecl.name.text
      return (name, "operator " + name, "`operator \(name)`", "the operator declaration `\(name)` changed")
    }
    if let group = node.as(PrecedenceGroupDeclSyntax.self) {
      let name = group.name.text
      return (name, "precedencegroup " + name, "`precedencegroup \(name)`", "the precedence group `\(name)` changed")
    }
    if let macro = node.as(MacroDeclSyntax.self) {
      let name = macro.name.text
      return (name, "macro " + name, "`macro \(name)`", "the macro declaration `\(name)` changed")
    }
    if let expansion = node.as(MacroExpansionDeclSyntax.self) {
      let name = "#" + expansion.macroName.text
      return (name, "expansion " + name, "the macro expansion `\(name)`", "the macro expansion `\(name)` changed")
    }
    if node.is(DeclSyntax.self) {
      let name = node.trimmedDescription.prefix(40).description
      return (name, "decl " + name, "`\(name)`", "the declaration `\(name)` changed")
    }
    return ("top-level code", "top-level code", "top-level code", "top-level code changed")
  }

  /// The node's tokens without trivia, one space apart, each excluded node (one whose range is inside the node)
  /// replaced by a placeholder.
  static func text(_ node: Syntax, excluding: [Syntax] = []) -> String {
    let ranges = excluding.map { $0.positionAfterSkippingLeadingTrivia..<$0.endPositionBeforeTrailingTrivia }
      .sorted { $0.lowerBound < $1.lowerBound }
    var parts: [String] = []
    var next = 0
    for token in node.tokens(viewMode: .sourceAccurate) {
      let position = token.positionAfterSkippingLeadingTrivia
      while next < ranges.count && ranges[next].lowerBound <= position {
        parts.append("⟨body⟩")
        next += 1
      }
      if ranges.contains(where: { $0.contains(position) }) { continue }
      parts.append(token.text)
    }
    parts += Array(repeating: "⟨body⟩", count: ranges.count - next)
    return parts.joined(separator: " ")
  }
}

/// Where a text first fails to parse: "line 3: expected `}`".
enum ParseProblem {
  static func first(in tree: SourceFileSyntax) -> String? {
    guard tree.hasError else { return nil }
    let finder = ProblemFinder(viewMode: .all)
    finder.walk(tree)
    guard let (position, what) = finder.found else { return "it has a syntax error" }
    let line = SourceLocationConverter(fileName: "", tree: tree).location(for: position).line
    return "line \(line): \(what)"
  }
}

private final class ProblemFinder: SyntaxVisitor {
  var found: (AbsolutePosition, String)?

  override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
    if found == nil {
      found = (node.positionAfterSkippingLeadingTrivia, "unexpected `\(node.trimmedDescription.prefix(40))`")
    }
    return .skipChildren
  }

  override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
    if found == nil && token.presence == .missing {
      found = (token.positionAfterSkippingLeadingTrivia, "expected `\(token.text)`")
    }
    return .skipChildren
  }
}
