import MCP
import Testing

@testable import RippleMCP

/// A tool call's arguments checked before anything runs (issue 52): each bad one is an error naming it.
@Suite struct RippleToolCallTests {
  @Test func everyToolIsReadOnlyAndTakesNoUnlistedArgument() {
    #expect(
      RippleTools.catalogue.map(\.name) == ["affected", "explain", "test_plan", "flaky", "dependencies", "dependents"])
    for tool in RippleTools.catalogue {
      #expect(tool.annotations.readOnlyHint == true, "\(tool.name)")
      #expect(tool.inputSchema.objectValue?["additionalProperties"] == .bool(false), "\(tool.name)")
    }
  }

  @Test func argumentsBecomeTheCall() throws {
    #expect(try RippleToolCall(name: "affected", arguments: [:]) == .affected(.init()))
    #expect(
      try RippleToolCall(name: "explain", arguments: ["target": "AppTests", "base": "main", "direct": true])
        == .explain(target: "AppTests", .init(base: "main", direct: true)))
    #expect(
      try RippleToolCall(name: "test_plan", arguments: ["all": true, "head": .null])
        == .testPlan(.init(), all: true))
    #expect(try RippleToolCall(name: "flaky", arguments: [:]) == .flaky(since: "30d"))
    #expect(
      try RippleToolCall(name: "dependents", arguments: ["target": "Core", "transitive": true])
        == .dependents(target: "Core", transitive: true))
  }

  @Test(
    arguments: [
      (
        "nope", [:],
        "unknown tool `nope`; the tools are `affected`, `explain`, `test_plan`, `flaky`, `dependencies`, `dependents`"
      ),
      ("explain", [:], "explain: missing argument `target`"),
      ("explain", ["target": ""], "explain: argument `target` is empty"),
      ("dependencies", ["target": 3], "dependencies: argument `target` must be a string, not a number"),
      ("affected", ["direct": "yes"], "affected: argument `direct` must be true or false, not a string"),
      ("affected", ["base": ["main"]], "affected: argument `base` must be a string, not an array"),
      ("flaky", ["sinse": "3d"], "flaky: unknown argument `sinse`; it takes `since`"),
    ] as [(String, [String: Value], String)])
  func aBadCallIsRefusedNamingWhat(name: String, arguments: [String: Value], message: String) {
    #expect(throws: ToolCallError(message)) { try RippleToolCall(name: name, arguments: arguments) }
  }
}
