import ConfigLoading
import RippleConfig
import RippleCore
import Testing

private let sha = String(repeating: "ab", count: 32)

/// The reference user's dictionary: a word list compressed, then imported into SQLite.
private let dictionary = """
  assets:
    - id: words-private
      source: {https: "https://assets.example.com/Words.en.txt.gz"}
      sha256: "\(sha)"
      destination: Sources/DictionaryFileClient/Dictionaries
  generate:
    - id: words-db
      command: [sh, -c, "gunzip --stdout Sources/DictionaryFileClient/Dictionaries/Words.en.txt.gz | sqlite3 --init Bootstrap/sqlite-words-import.sql \\"$RIPPLE_OUTPUT_DIR/Words.en.db\\""]
      inputs: [Sources/DictionaryFileClient/Dictionaries/Words.en.txt.gz, Bootstrap/sqlite-words-import.sql]
      destination: Sources/DictionarySqliteClient/Dictionaries
      after: [words]
      toolchain: [sqlite3, -version]
      outputs: [Words.en.db]
    - id: words
      command: [sh, Bootstrap/words.sh]
      inputs: ["Bootstrap/*.sh"]
      destination: ./Sources/DictionaryFileClient/Dictionaries/
      private: words-private
      environment: [WORDS_SOURCE]

  """

@Suite("ripple.yml generate")
struct GenerateParseTests {
  @Test func theDictionaryChainParses() throws {
    let config = try ConfigLoader.parse(dictionary, path: "ripple.yml")
    let entries = config.assets.generate
    #expect(entries.map(\.id) == ["words-db", "words"])
    #expect(entries[0].command.first == "sh")
    #expect(
      entries[0].inputs.map(\.pattern) == [
        "Sources/DictionaryFileClient/Dictionaries/Words.en.txt.gz", "Bootstrap/sqlite-words-import.sql",
      ])
    #expect(entries[0].after == ["words"])
    #expect(entries[0].toolchain == ["sqlite3", "-version"])
    #expect(entries[0].outputs == ["Words.en.db"])
    #expect(entries[1].destination == "Sources/DictionaryFileClient/Dictionaries")
    #expect(entries[1].privateAsset == "words-private")
    #expect(entries[1].environment == ["WORDS_SOURCE"])
    #expect(entries[1].origins["Sources/DictionaryFileClient/Dictionaries"]?.line == 17)
    #expect(GenerateOrder.sorted(entries) == .success(["words", "words-db"]))
  }

  @Test func aCycleInAfterNamesTheCycle() throws {
    let error = try failure(
      """
      generate:
        - {id: a, command: [true], destination: A, after: [c]}
        - {id: b, command: [true], destination: B, after: [a]}
        - {id: c, command: [true], destination: C, after: [b]}
        - {id: d, command: [true], destination: D, after: [a]}
      """)
    #expect(error.message == "generate entries wait for each other in a cycle: a → c → b → a")
    #expect(error.line == 2)
    #expect(error.keyPath == "generate[0].after")
  }

  @Test func afterMustNameAnAssetOrEntry() throws {
    let error = try failure("generate:\n  - {id: a, command: [true], destination: A, after: [fonts]}\n")
    #expect(error.message == "`fonts` is neither an asset nor a generate entry")
    #expect(error.keyPath == "generate[0].after[0]")
    let itself = try failure("generate:\n  - {id: a, command: [true], destination: A, after: [a]}\n")
    #expect(itself.message == "`a` cannot run after itself")
  }

  @Test(arguments: ["../private/words.txt", "/etc/passwd", "Bootstrap/../../x", "~/words"])
  func inputsOutsideTheRepositoryAreRefused(glob: String) throws {
    let error = try failure("generate:\n  - {id: a, command: [true], destination: A, inputs: [\"\(glob)\"]}\n")
    #expect(error.keyPath == "generate[0].inputs[0]")
    #expect(error.line == 2)
    #expect(error.hint == "inputs are files of the repository, matched from its root")
  }

  @Test func idsAreSharedWithAssets() throws {
    let error = try failure(
      """
      generate:
        - {id: words, command: [true], destination: A}
      assets:
        - {id: words, source: {file: w.txt}, sha256: "\(sha)", destination: B}
      """)
    #expect(error.message == "`words` is also the id of an asset")
    let duplicate = try failure(
      "generate:\n  - {id: a, command: [true], destination: A}\n  - {id: a, command: [true], destination: B}\n")
    #expect(duplicate.message == "duplicate generate id `a`")
  }

  @Test func privateNamesAnAssetWithTheSameDestination() throws {
    let unknown = try failure("generate:\n  - {id: a, command: [true], destination: A, private: nope}\n")
    #expect(unknown.message == "`nope` is not an asset")
    let elsewhere = try failure(
      """
      assets:
        - {id: w, source: {file: w.txt}, sha256: "\(sha)", destination: B}
      generate:
        - {id: a, command: [true], destination: A, private: w}
      """)
    #expect(elsewhere.message == "asset `w` installs into `B`, this entry into `A`")
    #expect(elsewhere.keyPath == "generate[0].private")
  }

  @Test func commandAndDestinationAreChecked() throws {
    #expect(try failure("generate:\n  - {id: a, command: [], destination: A}\n").message == "the command is empty")
    #expect(try failure("generate:\n  - {id: a, command: [true]}\n").message == "missing key `destination`")
    let git = try failure("generate:\n  - {id: a, command: [true], destination: .git/hooks}\n")
    #expect(git.keyPath == "generate[0].destination")
    let escape = try failure("generate:\n  - {id: a, command: [true], destination: ../elsewhere}\n")
    #expect(escape.message.contains("`..`"))
    let output = try failure("generate:\n  - {id: a, command: [true], destination: A, outputs: [../x]}\n")
    #expect(output.keyPath == "generate[0].outputs[0]")
    let typo = try failure("generate:\n  - {id: a, command: [true], destination: A, input: [x]}\n")
    #expect(typo.message.contains("input"))
    let variable = try failure("generate:\n  - {id: a, command: [true], destination: A, environment: [\"1X\"]}\n")
    #expect(variable.keyPath == "generate[0].environment[0]")
  }

  @Test func timeoutDefaultsToThirtyMinutesAndIsADuration() throws {
    let config = try ConfigLoader.parse(dictionary, path: "ripple.yml").assets
    #expect(config.generate.allSatisfy { $0.timeout == .seconds(1800) })
    let short = try ConfigLoader.parse(
      dictionary.replacingOccurrences(
        of: "    outputs: [Words.en.db]\n", with: "    outputs: [Words.en.db]\n    timeout: 90s\n"),
      path: "ripple.yml"
    ).assets
    #expect(short.generate.first { $0.id == "words-db" }?.timeout == .seconds(90))
    let error = try failure(
      dictionary.replacingOccurrences(
        of: "    outputs: [Words.en.db]\n", with: "    outputs: [Words.en.db]\n    timeout: 10\n"))
    #expect(error.message == "`10` has no unit")
    #expect(error.keyPath == "generate[0].timeout")
  }
}
