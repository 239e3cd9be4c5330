import ConfigLoading
import RippleConfig
import RippleCore
import Testing

/// `selection.toolchains`: the Swift versions whose manifest choice the graph includes.
@Suite struct ToolchainsConfigTests {
  @Test func versionsAreParsedWithTheirPositions() throws {
    let config = try ConfigLoader.parse(
      "selection:\n  toolchains: [\"6.0\", 6.1, \"6.1.2\"]\n", path: "ripple.yml")
    let toolchains = config.selection.toolchains
    #expect(toolchains.map(\.version) == [[6, 0], [6, 1], [6, 1, 2]])
    #expect(toolchains.map(\.name) == ["6.0", "6.1", "6.1.2"])
    #expect(toolchains.first?.origin == "ripple.yml:2:16: selection.toolchains[0]")
    #expect(try ConfigLoader.parse("selection: {}\n", path: "ripple.yml").selection.toolchains == [])
  }

  @Test func badVersionsAreConfigErrorsWithTheirPosition() throws {
    for text in ["\"6\"", "\"latest\"", "\"6.x\"", "\"6.1.2.3\"", "\"v6.1\"", "\"6..1\""] {
      let error = try failure("selection:\n  toolchains:\n    - \"6.0\"\n    - \(text)\n")
      #expect(error.keyPath == "selection.toolchains[1]", "\(text)")
      #expect(error.line == 4)
      #expect(error.message.hasSuffix("is not a Swift version"), "\(text)")
    }
    let mapping = try failure("selection:\n  toolchains: [{swift: \"6.0\"}]\n")
    #expect(mapping.message == "expected a Swift version, found a mapping")
  }

  @Test func anEmptyListADuplicateAndANonListAreConfigErrors() throws {
    let empty = try failure("selection:\n  toolchains: []\n")
    #expect(empty.keyPath == "selection.toolchains")
    #expect(empty.message == "lists no Swift version")
    let duplicate = try failure("selection:\n  toolchains: [\"6.1\", \"6.1.0\"]\n")
    #expect(duplicate.keyPath == "selection.toolchains[1]")
    #expect(duplicate.message == "Swift 6.1.0 is listed twice")
    let scalar = try failure("selection:\n  toolchains: \"6.1\"\n")
    #expect(scalar.keyPath == "selection.toolchains")
  }
}
