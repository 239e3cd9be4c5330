import Foundation
import TestSupport
import Testing

/// `generate:` end to end through the binary: the reference user's dictionary chain (word list → gzip →
/// SQLite) bootstrapped, and `ripple affected` connecting ripple.yml and generate inputs to targets.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct GenerateCommandTests {
  static let dictionary = """
    generate:
      - id: words
        command: [sh, -c, "tr a-z A-Z < Bootstrap/words.txt | sort -u | gzip -n > \\"$RIPPLE_OUTPUT_DIR/Words.en.txt.gz\\""]
        inputs: [Bootstrap/words.txt]
        destination: Sources/DictionaryFileClient/Dictionaries
      - id: words-db
        command: [sh, -c, "gunzip --stdout Sources/DictionaryFileClient/Dictionaries/Words.en.txt.gz | sqlite3 -batch --init Bootstrap/sqlite-words-import.sql \\"$RIPPLE_OUTPUT_DIR/Words.en.db\\""]
        inputs: [Sources/DictionaryFileClient/Dictionaries/Words.en.txt.gz, Bootstrap/sqlite-words-import.sql]
        destination: Sources/DictionarySqliteClient/Dictionaries
        after: [words]
        toolchain: [sqlite3, -version]
        outputs: [Words.en.db]

    """

  static func make() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write("Bootstrap/words.txt", "apple\nbanana\ncherry\napple\n")
    try repo.write(
      "Bootstrap/sqlite-words-import.sql",
      "CREATE TABLE words (word varchar(256) NOT NULL UNIQUE);\n.separator ,\n.import /dev/stdin words\n")
    try repo.write(
      ".gitignore",
      ".build/\nSources/DictionaryFileClient/Dictionaries/\nSources/DictionarySqliteClient/Dictionaries/\n")
    try repo.write("ripple.yml", dictionary)
    try repo.commitAll("Initial import")
    return repo
  }

  func count(_ repo: TestRepository) throws -> String {
    try run(
      [
        "/usr/bin/env", "sqlite3", repo.root + "/Sources/DictionarySqliteClient/Dictionaries/Words.en.db",
        "SELECT count(*) FROM words",
      ]
    ).standardOutput
  }

  @Test func theDictionaryChainBuildsThenIsUpToDate() throws {
    let repo = try Self.make()
    let first = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    #expect(try count(repo) == "3\n")
    #expect(first.standardError.contains("words-db: generated"), "\(first.standardError)")

    let second = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(second.status == 0)
    #expect(second.standardOutput == "up to date\n", "\(second.standardOutput)\(second.standardError)")

    try repo.append("Bootstrap/words.txt", "damson\n")
    let third = try RippleBinary.run(["bootstrap", "--jobs", "1"], in: repo.root)
    #expect(third.status == 0, "\(third.standardError)")
    #expect(try count(repo) == "4\n")
  }

  @Test func aFailingStepExitsOneNamesItAndKeepsThePreviousDatabase() throws {
    let repo = try Self.make()
    #expect(try RippleBinary.run(["bootstrap"], in: repo.root).status == 0)
    try repo.append("Bootstrap/words.txt", "damson\n")
    let config = try String(contentsOfFile: repo.root + "/ripple.yml", encoding: .utf8)
    try repo.write(
      "ripple.yml",
      config.replacingOccurrences(
        of: "sqlite3 -batch --init",
        with: "{ echo 'Error: no such table: nowhere' >&2; exit 7; } && sqlite3 -batch --init"))
    let result = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(result.status == 1, "\(result.standardError)")
    #expect(result.standardError.contains("generate entry `words-db`: `sh -c"), "\(result.standardError)")
    #expect(result.standardError.contains("exited with status 7:\n    Error: no such table: nowhere"))
    #expect(try count(repo) == "3\n")
  }

  @Test func configErrorsAndMissingToolsStopBeforeAnythingRuns() throws {
    let repo = try Self.make()
    try repo.write(
      "ripple.yml",
      Self.dictionary.replacingOccurrences(
        of: "destination: Sources/DictionaryFileClient/Dictionaries",
        with: "destination: Sources/DictionaryFileClient/Dictionaries\n    after: [words-db]"))
    let cycle = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(cycle.status == 2, "\(cycle.standardError)")
    #expect(cycle.standardError.contains("cycle: words → words-db → words"), "\(cycle.standardError)")

    try repo.write(
      "ripple.yml",
      Self.dictionary.replacingOccurrences(of: "toolchain: [sqlite3", with: "toolchain: [ripple-no-such-sqlite"))
    let missing = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(missing.status == 3, "\(missing.standardError)")
    #expect(missing.standardError.contains("`ripple-no-such-sqlite`"))
    let doctor = try RippleBinary.run(["doctor"], in: repo.root)
    #expect(doctor.status == 1)
    #expect(
      (doctor.standardOutput + doctor.standardError).contains(
        "`ripple-no-such-sqlite` is not on PATH; generate words-db runs with it"),
      "\(doctor.standardOutput)\(doctor.standardError)")
    #expect(!FileManager.default.fileExists(atPath: repo.root + "/Sources/DictionaryFileClient"))
  }

  @Test func affectedFollowsAssetsAndGenerateInputsToTheirTargets() throws {
    let repo = try ModularFixture.make()
    try repo.append(
      "ripple.yml",
      """
      assets:
        - id: fonts
          source: {file: /nowhere/fonts.zip}
          sha256: "\(String(repeating: "ab", count: 32))"
          destination: Sources/AppFeature/Fonts
      generate:
        - id: words
          command: [gzip]
          inputs: [Bootstrap/words.txt]
          destination: Packages/Shared/Sources/Model/Dictionaries

      """)
    try repo.write("Bootstrap/words.txt", "apple\n")
    try repo.commitAll("Assets")

    let config = try String(contentsOfFile: repo.root + "/ripple.yml", encoding: .utf8)
    try repo.write("ripple.yml", config.replacingOccurrences(of: "\"ab", with: "\"cd"))
    let asset = try RippleBinary.affectedTests(["--base", "HEAD"], in: repo.root)
    #expect(asset.tests == [".:AppFeatureTests"])
    #expect(asset.json["runAll"] as? Bool == false)

    try repo.write("ripple.yml", config)
    try repo.append("Bootstrap/words.txt", "banana\n")
    let input = try RippleBinary.affectedTests(["--base", "HEAD"], in: repo.root)
    #expect(input.tests.contains("Packages/Shared:ModelTests"))
    #expect(!input.tests.contains(".:AppCoreTests"))
    let explain = try RippleBinary.run(["affected", "--base", "HEAD", "--explain", "ModelTests"], in: repo.root)
    #expect(
      explain.standardOutput.contains("changed Bootstrap/words.txt → asset words → Model"), "\(explain.standardOutput)")

    try repo.write("ripple.yml", config + "daemon: {bootstrap: false}\n")
    let other = try RippleBinary.affectedTests(["--base", "HEAD"], in: repo.root)
    #expect(other.json["runAll"] as? Bool == true)
  }

  @Test func sigtermStopsAHungCommandWithItsProcessGroup() async throws {
    let repo = try TestRepository.checkout()
    let pidFile = repo.root + "/sleep.pid"
    try repo.write(
      "ripple.yml",
      """
      generate:
        - id: hang
          command: [sh, -c, "sleep 300 & echo $! > \(pidFile); wait"]
          destination: Sources/Hang/Resources

      """)
    try repo.commitAll("hang")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RippleBinary.path)
    process.arguments = ["bootstrap"]
    process.currentDirectoryURL = URL(fileURLWithPath: repo.root)
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["RIPPLE_CACHE_DIR": RippleBinary.cacheDirectory, "NO_COLOR": "1"]) { $1 }
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let deadline = ContinuousClock.now + .seconds(60)
    var sleepPID: Int32?
    while sleepPID == nil && ContinuousClock.now < deadline && process.isRunning {
      sleepPID = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
        Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    let pid = try #require(sleepPID, "the command never started")
    kill(process.processIdentifier, SIGTERM)
    let stoppedAt = ContinuousClock.now
    while process.isRunning && ContinuousClock.now - stoppedAt < .seconds(30) {
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(!process.isRunning, "ripple bootstrap stops within 30 s of SIGTERM")
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 3, "\(stderr)")
    #expect(stderr.contains("generate entry `hang`: interrupted"), "\(stderr)")
    let gone = await poll(every: .milliseconds(100), timeout: .seconds(30)) {
      processHasEnded(pid)
    }
    if !gone { kill(pid, SIGKILL) }
    #expect(gone, "the command's background sleep was stopped with its group")
  }
}
