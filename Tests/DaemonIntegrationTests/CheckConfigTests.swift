import Foundation
import TestSupport
import Testing

/// `rippled check-config` (issue 52): it reads every secret file rippled.yml names, as `serve` would, and reaches
/// every `remote:`; each failure is a line of its own naming rippled.yml's line, never with "ok". No builds.
@Suite("rippled check-config reads its files and reaches its remotes", .serialized)
struct CheckConfigTests {
  static let ripple = (DaemonHarness.binary as NSString).deletingLastPathComponent + "/ripple"

  func checkConfig(_ h: DaemonHarness) throws -> CommandResult {
    try runCommand([DaemonHarness.binary, "check-config", "--config", h.root + "/rippled.yml"])
  }

  /// rippled.yml's line (1-based) of the first line containing `text`.
  func line(_ h: DaemonHarness, _ text: String) throws -> Int {
    let lines = try String(contentsOfFile: h.root + "/rippled.yml", encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    return try #require(lines.firstIndex { $0.contains(text) }) + 1
  }

  @Test func theFileKeygenWritesIsTheKeyRippledReads() throws {
    let h = try DaemonHarness()
    try h.git(["init", "-q", "--bare", "-b", "main", h.remote])
    let path = h.root + "/signing.key"
    let keygen = try runCommand([Self.ripple, "results", "keygen", "--out", path])
    #expect(keygen.status == 0, "\(keygen.standardError)")
    let publicHalf = try #require(
      keygen.standardOutput.split(separator: "\n").first { $0.contains("Its public half: ") }?
        .split(separator: " ").last.map(String.init))
    try h.writeConfig(extra: "records:\n  signingKeyFile: \(path)")
    let check = try checkConfig(h)
    #expect(check.status == 0, "\(check.standardError)")
    #expect(check.standardOutput.contains("rippled.yml: ok"), "\(check.standardOutput)")
    #expect(check.standardOutput.contains("public half \(publicHalf)"), "\(check.standardOutput)")
  }

  @Test func aSigningKeyFileThatIsNotAKeyIsAnErrorNamingTheFileAndWhatItHolds() throws {
    let h = try DaemonHarness()
    try h.git(["init", "-q", "--bare", "-b", "main", h.remote])
    let path = h.root + "/signing.key"
    let publicKey = Data(repeating: 3, count: 32).base64EncodedString()
    let cases: [(String, String)] = [
      ("key: \(publicKey)\n", "holds a public key"),
      ("# The secret: only for jobs of protected branches\nRIPPLE_RESULT_SIGNING_KEY=\(publicKey)\n", "keygen --out"),
      ("garbage, not a key\n", "is not base64"),
      (Data(repeating: 3, count: 16).base64EncodedString() + "\n", "decodes to 16 bytes"),
    ]
    try h.writeConfig(extra: "records:\n  signingKeyFile: \(path)")
    let at = "\(h.root)/rippled.yml:\(try line(h, "signingKeyFile:")): records.signingKeyFile: '\(path)' "
    for (content, says) in cases {
      try content.write(toFile: path, atomically: true, encoding: .utf8)
      let check = try checkConfig(h)
      #expect(check.status == 2, "\(content): \(check.standardError)")
      #expect(check.standardError.contains(at), "\(check.standardError)")
      #expect(check.standardError.contains(says), "\(content): \(check.standardError)")
      #expect(!check.standardOutput.contains("ok"), "\(check.standardOutput)")
    }
    // serve refuses with the same words, before creating anything.
    let serve = try runCommand([DaemonHarness.binary, "--config", h.root + "/rippled.yml"])
    #expect(serve.status == 2, "\(serve.standardError)")
    #expect(
      serve.standardError.contains("records.signingKeyFile: '\(path)' decodes to 16 bytes"), "\(serve.standardError)")
    #expect(!FileManager.default.fileExists(atPath: h.state), "serve created the state folder first")
  }

  @Test func everyUnreadableSecretFileAndUnreachableRemoteIsALineOfItsOwn() throws {
    let h = try DaemonHarness()
    let missingRemote = h.root + "/no-such-remote.git"
    try "".write(toFile: h.root + "/write-token", atomically: true, encoding: .utf8)
    try h.writeConfig(
      repositories: """
          - name: app
            remote: \(missingRemote)
            fetchInterval: 1h
            branches: [main]
        """,
      extra: "records:\n  readTokenFile: \(h.root)/no-read-token\n  writeTokenFile: \(h.root)/write-token")
    let check = try checkConfig(h)
    #expect(check.status == 3, "the worst failure is the machine's: \(check.standardError)")
    #expect(!check.standardOutput.contains("ok"), "\(check.standardOutput)")
    let config = h.root + "/rippled.yml"
    let expected = [
      "\(config):\(try line(h, "readTokenFile:")): records.readTokenFile: cannot read a non-empty secret from "
        + "'\(h.root)/no-read-token'",
      "\(config):\(try line(h, "writeTokenFile:")): records.writeTokenFile: cannot read a non-empty secret from "
        + "'\(h.root)/write-token'",
      "\(config):\(try line(h, "remote:")): repository app: remote: '\(missingRemote)' does not exist",
    ]
    let lines = check.standardError.split(separator: "\n").map(String.init)
    for text in expected {
      #expect(lines.contains { $0.hasPrefix(text) }, "\(text)\n\(check.standardError)")
    }
    #expect(lines.last?.contains("3 problems") == true, "\(check.standardError)")
  }

  @Test func aRemoteMustExistBeAGitRepositoryAndAnswer() throws {
    let h = try DaemonHarness()
    let plainFolder = h.root + "/plain"
    try FileManager.default.createDirectory(atPath: plainFolder, withIntermediateDirectories: true)
    // A loopback port nobody listens on: bound, then closed.
    let closedPort = try LoopbackListener().port
    let cases: [(String, String)] = [
      (h.root + "/missing.git", "'\(h.root)/missing.git' does not exist"),
      ("file://" + h.root + "/missing.git", "does not exist"),
      (plainFolder, "'\(plainFolder)' is not a git repository"),
      ("http://127.0.0.1:\(closedPort)/app.git", "127.0.0.1:\(closedPort)"),
    ]
    for (remote, says) in cases {
      try h.writeConfig(
        repositories: """
            - name: app
              remote: \(remote)
              fetchInterval: 1h
              branches: [main]
          """)
      let started = ContinuousClock.now
      let check = try checkConfig(h)
      #expect(ContinuousClock.now - started < .seconds(20), "\(remote)")
      #expect(check.status == 3, "\(remote): \(check.standardOutput)\(check.standardError)")
      #expect(!check.standardOutput.contains("ok"), "\(check.standardOutput)")
      let at = "\(h.root)/rippled.yml:\(try line(h, "remote:")): repository app: remote: "
      #expect(check.standardError.contains(at), "\(check.standardError)")
      #expect(check.standardError.contains(says), "\(remote): \(check.standardError)")
      // --offline (a package's check of its example config) leaves network remotes alone, never local ones.
      let offline = try runCommand(
        [DaemonHarness.binary, "check-config", "--offline", "--config", h.root + "/rippled.yml"])
      if remote.hasPrefix("http") {
        #expect(offline.status == 0, "\(offline.standardError)")
      } else {
        #expect(offline.status == 3 && offline.standardError.contains(says), "\(remote): \(offline.standardError)")
      }
    }
    // A bare repository, by path and by file URL, answers.
    try h.git(["init", "-q", "--bare", "-b", "main", h.remote])
    for remote in [h.remote, "file://" + h.remote] {
      try h.writeConfig(
        repositories: """
            - name: app
              remote: \(remote)
              fetchInterval: 1h
              branches: [main]
          """)
      let check = try checkConfig(h)
      #expect(check.status == 0, "\(remote): \(check.standardError)")
    }
  }
}
