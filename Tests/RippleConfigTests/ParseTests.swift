import ConfigLoading
import RippleConfig
import RippleCore
import Testing

@Suite("ripple.yml parsing")
struct ParseTests {
  @Test func fullValidFile() throws {
    let text = """
      # Ripple configuration
      selection:
        ignore: ["**/*.md", "docs/**"]
        global:
          - Makefile
          - .swift-version
        unowned: ignore
        inputs:
          DictionarySqliteClient: ["Bootstrap/sqlite-words-import.sql"]
          "Packages/Shared:Shared": ["Shared/*.json"]
        manifestEnvironments:
          - {}
          - {TEST_SERVER: "1", LEVEL: 2, DEBUG: true}
        excludePackages: ["Fixtures/**"]
      assets: []
      secrets:
      daemon:
        runTimeout: 45m
      """
    let config = try ConfigLoader.parse(text, path: "ripple.yml")
    let selection = config.selection
    #expect(config.sourcePath == "ripple.yml")
    #expect(selection.ignore == [Glob("**/*.md"), Glob("docs/**")])
    #expect(selection.global.map(\.pattern) == ["Makefile", ".swift-version"])
    #expect(selection.unowned == .ignore)
    #expect(selection.inputs["DictionarySqliteClient"] == [Glob("Bootstrap/sqlite-words-import.sql")])
    #expect(selection.inputs["Packages/Shared:Shared"] == [Glob("Shared/*.json")])
    #expect(selection.manifestEnvironments == [[:], ["TEST_SERVER": "1", "LEVEL": "2", "DEBUG": "true"]])
    #expect(selection.excludePackages == [Glob("Fixtures/**")])
  }

  @Test(arguments: ["", "\n", "# only a comment\n", "---\n", "~\n"])
  func emptyDocumentMeansDefaults(text: String) throws {
    let config = try ConfigLoader.parse(text, path: "ripple.yml")
    #expect(config.selection == SelectionConfig())
    #expect(config.sourcePath == "ripple.yml")
  }

  @Test func nullSectionsAndListsAreEmpty() throws {
    let config = try ConfigLoader.parse("selection:\n  ignore:\n  unowned: all\n", path: "ripple.yml")
    #expect(config.selection == SelectionConfig())
  }

  @Test func unknownTopLevelKeySuggestsTheClosest() throws {
    let error = try failure("selecton:\n  ignore: []\n")
    #expect(error.line == 1)
    #expect(error.column == 1)
    #expect(error.keyPath == "selecton")
    #expect(error.hint == "did you mean `selection`?")
  }

  @Test func unknownSelectionKeyNamesItsPathAndLine() throws {
    let error = try failure("selection:\n  global: [Makefile]\n  ignor: [\"*.md\"]\n")
    #expect(error.line == 3)
    #expect(error.keyPath == "selection.ignor")
    #expect(error.hint == "did you mean `ignore`?")
    #expect(error.description == "ripple.yml:3:3: selection.ignor: unknown key `ignor` (did you mean `ignore`?)")
  }

  @Test func unrelatedUnknownKeyListsTheValidKeys() throws {
    let error = try failure("colour: red\n")
    #expect(error.hint == "valid keys: selection, assets, generate, secrets, daemon, test")
  }

  @Test func badUnownedValueListsTheChoices() throws {
    let error = try failure("selection:\n  unowned: sometimes\n")
    #expect(error.keyPath == "selection.unowned")
    #expect(error.line == 2)
    #expect(error.column == 12)
    #expect(error.hint == "expected one of: all, ignore")
    #expect(error.description.contains("`sometimes`"))
  }

  @Test func stringWhereAListIsExpected() throws {
    let error = try failure("selection:\n  ignore: \"**/*.md\"\n")
    #expect(error.keyPath == "selection.ignore")
    #expect(error.message.contains("expected a list"))
  }

  @Test func numberWhereAGlobIsExpected() throws {
    let error = try failure("selection:\n  global: [Makefile, 42]\n")
    #expect(error.keyPath == "selection.global[1]")
    #expect(error.message == "expected a string, found the number `42`")
  }

  @Test func numberKeyIsRejected() throws {
    let error = try failure("selection:\n  inputs:\n    1: [\"a\"]\n")
    #expect(error.keyPath == "selection.inputs")
    #expect(error.line == 3)
    #expect(error.message.contains("keys must be strings"))
  }

  @Test func unclosedBracketInAGlobIsAnError() throws {
    let error = try failure("selection:\n  excludePackages:\n    - \"Fixtures/[ab\"\n")
    #expect(error.keyPath == "selection.excludePackages[0]")
    #expect(error.line == 3)
    #expect(error.message.contains("never closed"))
    #expect(
      try ConfigLoader.parse("selection:\n  ignore: [\"[]]x\", \"[!a]*\"]\n", path: "r").selection.ignore.count == 2)
  }

  @Test func inputsKeyMustNameATarget() throws {
    let error = try failure("selection:\n  inputs:\n    \":Foo\": [a]\n")
    #expect(error.keyPath == "selection.inputs.:Foo")
    #expect(error.hint == "write `Target` or `package/dir:Target`")
  }

  @Test func inputsValueMustBeAList() throws {
    let error = try failure("selection:\n  inputs:\n    Foo: a.sql\n")
    #expect(error.keyPath == "selection.inputs.Foo")
  }

  @Test func manifestEnvironmentEntriesMustBeMappingsOfScalars() throws {
    let notMapping = try failure("selection:\n  manifestEnvironments:\n    - TEST_SERVER\n")
    #expect(notMapping.keyPath == "selection.manifestEnvironments[0]")
    let listValue = try failure("selection:\n  manifestEnvironments:\n    - {}\n    - {A: [1, 2]}\n")
    #expect(listValue.keyPath == "selection.manifestEnvironments[1].A")
    #expect(listValue.line == 4)
    let nullValue = try failure("selection:\n  manifestEnvironments:\n    - {A: }\n")
    #expect(nullValue.keyPath == "selection.manifestEnvironments[0].A")
  }

  @Test func futureSectionsMustBeMappings() throws {
    let error = try failure("daemon: 3\n")
    #expect(error.keyPath == "daemon")
    #expect(error.message == "expected a mapping, found the number `3`")
  }

  @Test func topLevelMustBeAMapping() throws {
    let error = try failure("- selection\n")
    #expect(error.line == 1)
    #expect(error.message.contains("expected a mapping"))
  }

  @Test func yamlSyntaxErrorCarriesTheLine() throws {
    let error = try failure("selection:\n  ignore: [\"a\"\n  global: []\n")
    #expect(error.line != nil)
    #expect(error.message.hasPrefix("invalid YAML"))
    let tab = try failure("selection:\n  unowned: all\n   bad: : :\n")
    #expect(tab.line == 3)
  }

  @Test func duplicateKeyIsAnError() throws {
    let error = try failure("selection:\n  unowned: all\n  unowned: ignore\n")
    #expect(error.message.contains("duplicate key `unowned`"))
    #expect(error.line != nil)
  }
}
