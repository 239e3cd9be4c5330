import MCP

/// `ripple mcp`'s tools, all read-only: what they are called, what they take, and a call's arguments checked
/// into a `RippleToolCall`. Pure: no workspace here (ToolRunner runs a call).
public enum RippleTools {
  /// The arguments every comparison takes, as `ripple affected` and `ripple test` do.
  static let revisionProperties: [String: Value] = [
    "base": property(
      "string",
      "Base revision (default: the merge-base of HEAD with origin/HEAD, main or master); `auto`: the newest commit "
        + "of the base branch whose run passed, from the result store."),
    "head": property("string", "Head revision (default: the working tree, with staged, unstaged and untracked files)."),
    "noMergeBase": property("boolean", "Compare from `base` itself instead of the merge-base of base and head."),
    "direct": property("boolean", "Only direct dependents of changed targets, not the transitive closure."),
  ]

  static let targetProperty = property(
    "string", "A target as `package:Name` (the package's folder, `.` for the root) or a bare name when it is unique.")

  /// Every tool, in the order `tools/list` gives them.
  public static let catalogue: [Tool] = [
    tool(
      "affected",
      "The targets and test targets a change reaches, each with its reasons (`ripple affected --format json`).",
      revisionProperties),
    tool(
      "explain", "Why a target is affected: the chain from a changed file to it (`ripple affected --explain`).",
      revisionProperties.merging(["target": targetProperty]) { $1 }, required: ["target"]),
    tool(
      "test_plan",
      "What `ripple test` would run, and nothing run: the runs and their commands, each test target's content key "
        + "and the targets a trusted pass record covers (`ripple test --dry-run --format json`).",
      revisionProperties.merging([
        "all": property("boolean", "Every test target, not only the affected ones.")
      ]) { $1 }),
    tool(
      "flaky", "Tests that failed and then passed on a retry, by flake rate (`ripple flaky --format json`).",
      ["since": property("string", "How far back: Nh, Nd or Nw (default 30d).")]),
    tool(
      "dependencies", "The targets a target depends on, in the working tree's package graph.",
      ["target": targetProperty, "transitive": property("boolean", "Every target reached, not only direct ones.")],
      required: ["target"]),
    tool(
      "dependents", "The targets that depend on a target, in the working tree's package graph.",
      ["target": targetProperty, "transitive": property("boolean", "Every target reached, not only direct ones.")],
      required: ["target"]),
  ]

  static func property(_ type: String, _ description: String) -> Value {
    .object(["type": .string(type), "description": .string(description)])
  }

  static func tool(_ name: String, _ description: String, _ properties: [String: Value], required: [String] = [])
    -> Tool
  {
    var schema: [String: Value] = [
      "type": "object", "properties": .object(properties), "additionalProperties": false,
    ]
    if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
    return Tool(
      name: name, description: description, inputSchema: .object(schema),
      annotations: .init(readOnlyHint: true, openWorldHint: false))
  }
}

/// A tool call whose arguments were checked against the tool's schema.
public enum RippleToolCall: Sendable, Equatable {
  case affected(Revisions)
  case explain(target: String, Revisions)
  case testPlan(Revisions, all: Bool)
  case flaky(since: String)
  case dependencies(target: String, transitive: Bool)
  case dependents(target: String, transitive: Bool)

  public struct Revisions: Sendable, Equatable {
    public var base: String?
    public var head: String?
    public var noMergeBase = false
    public var direct = false
  }

  /// `name` and its `arguments`; an unknown tool, an unknown or missing argument or one of the wrong type is an
  /// error naming it (a JSON-RPC "invalid params" error to the client).
  public init(name: String, arguments: [String: Value]) throws(ToolCallError) {
    guard let tool = RippleTools.catalogue.first(where: { $0.name == name }) else {
      throw ToolCallError(
        "unknown tool `\(name)`; the tools are " + RippleTools.catalogue.map { "`\($0.name)`" }.joined(separator: ", "))
    }
    let arguments = try ToolArguments(tool: tool, arguments)
    func revisions() throws(ToolCallError) -> Revisions {
      Revisions(
        base: try arguments.string("base"), head: try arguments.string("head"),
        noMergeBase: try arguments.bool("noMergeBase"), direct: try arguments.bool("direct"))
    }
    switch name {
    case "affected": self = .affected(try revisions())
    case "explain": self = .explain(target: try arguments.required("target"), try revisions())
    case "test_plan": self = .testPlan(try revisions(), all: try arguments.bool("all"))
    case "flaky": self = .flaky(since: try arguments.string("since") ?? "30d")
    case "dependencies":
      self = .dependencies(target: try arguments.required("target"), transitive: try arguments.bool("transitive"))
    default:
      self = .dependents(target: try arguments.required("target"), transitive: try arguments.bool("transitive"))
    }
  }
}

/// Why a call was refused before it ran: a sentence naming the tool or argument.
public struct ToolCallError: Error, Equatable, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

/// One call's arguments, checked against its tool's `properties` and `required`.
struct ToolArguments {
  let tool: String
  let values: [String: Value]

  init(tool: Tool, _ values: [String: Value]) throws(ToolCallError) {
    self.tool = tool.name
    self.values = values
    let properties = tool.inputSchema.objectValue?["properties"]?.objectValue ?? [:]
    for key in values.keys.sorted() where properties[key] == nil {
      let known = properties.keys.sorted().map { "`\($0)`" }.joined(separator: ", ")
      throw ToolCallError("\(tool.name): unknown argument `\(key)`; it takes \(known.isEmpty ? "none" : known)")
    }
    for case .string(let key) in tool.inputSchema.objectValue?["required"]?.arrayValue ?? [] where values[key] == nil {
      throw ToolCallError("\(tool.name): missing argument `\(key)`")
    }
  }

  func string(_ key: String) throws(ToolCallError) -> String? {
    switch values[key] {
    case nil, .null: return nil
    case .string(let text) where !text.isEmpty: return text
    case .string: throw ToolCallError("\(tool): argument `\(key)` is empty")
    case let other?: throw ToolCallError("\(tool): argument `\(key)` must be a string, not \(Self.kind(of: other))")
    }
  }

  func required(_ key: String) throws(ToolCallError) -> String {
    guard let text = try string(key) else { throw ToolCallError("\(tool): missing argument `\(key)`") }
    return text
  }

  func bool(_ key: String) throws(ToolCallError) -> Bool {
    switch values[key] {
    case nil, .null: return false
    case .bool(let flag): return flag
    case let other?:
      throw ToolCallError("\(tool): argument `\(key)` must be true or false, not \(Self.kind(of: other))")
    }
  }

  static func kind(of value: Value) -> String {
    switch value {
    case .null: "null"
    case .bool: "a boolean"
    case .int, .double: "a number"
    case .string: "a string"
    case .data: "data"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
