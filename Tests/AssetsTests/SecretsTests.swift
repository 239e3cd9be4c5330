import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import Testing

@Suite("bootstrap: generated secret files")
struct SecretsTests {
  static let nasty = "a\"b\\c\n\\(evil)\t\u{1}\u{7F} é 🎉 \"\"\" #\"x\"# \r\n\0end"
  let spec = SecretSpec(
    id: "server", template: "Config/Secrets.swift.template", output: "Config/Secrets.swift",
    values: ["SECRET": "APP_SECRET"], example: "Config/Secrets.swift.example")

  private func repository(ignored: Bool = true) throws -> TestRepository {
    let repo = try TestRepository()
    try repo.write(".gitignore", ".build/\n" + (ignored ? "Config/Secrets.swift\n" : ""))
    try repo.write("Config/Secrets.swift.template", "let secret = \"{{SECRET}}\"\nprint(Array(secret.utf8))\n")
    try repo.write("Config/Secrets.swift.example", "let secret = \"example\"\n")
    return repo
  }

  @Test(arguments: [nasty, "", "plain", "\\", "\"", "\\(1 + 1)", "\u{2028}\u{85}"])
  func escapeRoundTrips(value: String) {
    let escaped = SwiftStringEscaping.escape(value)
    #expect(!escaped.contains("\n") && !escaped.contains("\r"))
    // No interpolation can start: once escaped backslashes are removed, no `\(` is left.
    #expect(!escaped.replacingOccurrences(of: "\\\\", with: "").contains("\\("))
    #expect(SwiftStringEscaping.unescape(escaped) == value)
  }

  @Test func generatedFileCompilesToTheExactValueAndIsPrivate() async throws {
    let repo = try repository()
    let log = FetchLog()
    let report = try await repo.bootstrapper(offlineFetcher(log: log), environment: ["APP_SECRET": Self.nasty]).run(
      AssetsConfig(secrets: [spec]))
    #expect(report.secrets.map(\.outcome) == [.generated])
    let path = repo.path("Config/Secrets.swift")
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // The real compiler reads the literal back to the same bytes.
    // The driver leaves a `TemporaryDirectory.*` folder in TMPDIR: one inside the repository goes with it.
    let temporary = repo.path(".build/tmp")
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let output = try shell(["swift", path], environment: ["TMPDIR": temporary]).trimmingCharacters(
      in: .whitespacesAndNewlines)
    #expect(output == "\(Array(Self.nasty.utf8))")

    // Unchanged value: the file is not rewritten.
    let again = try await repo.bootstrapper(offlineFetcher(log: log), environment: ["APP_SECRET": Self.nasty]).run(
      AssetsConfig(secrets: [spec]))
    #expect(again.secrets.map(\.outcome) == [.unchanged])
  }

  @Test func outputNotIgnoredByGitIsRefusedBeforeAnything() async throws {
    let repo = try repository(ignored: false)
    let log = FetchLog()
    let data = Data("x".utf8)
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher(["a": data], log: log), environment: ["APP_SECRET": "s"]).run(
        AssetsConfig(assets: [.test("a", data: data)], secrets: [spec]))
    }
    #expect(error == .secretNotIgnored(secret: "server", output: "Config/Secrets.swift"))
    #expect(error.category.exitCode == 2)
    #expect(repo.read("Config/Secrets.swift") == nil)
    #expect(log.requests.isEmpty && log.accessChecks.isEmpty)
  }

  @Test func trackedOutputIsNotIgnoredEvenIfListed() async throws {
    let repo = try repository()
    try repo.write("Config/Secrets.swift", "committed by mistake")
    try repo.run("git", "add", "-f", "Config/Secrets.swift")
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(offlineFetcher(log: FetchLog()), environment: ["APP_SECRET": "s"]).run(
        AssetsConfig(secrets: [spec]))
    }
    #expect(error == .secretNotIgnored(secret: "server", output: "Config/Secrets.swift"))
    #expect(repo.read("Config/Secrets.swift") == "committed by mistake")
  }

  @Test func missingValueUsesTheExampleInAutoModeAndNeverLogsValues() async throws {
    let repo = try repository()
    let events = EventLog()
    let report = try await repo.bootstrapper(
      offlineFetcher(log: FetchLog()), environment: ["APP_SECRET": ""], onEvent: events.add
    ).run(AssetsConfig(secrets: [spec]))
    #expect(report.secrets.map(\.outcome) == [.fromExample(missing: ["APP_SECRET"])])
    #expect(repo.read("Config/Secrets.swift") == "let secret = \"example\"\n")
    #expect(events.lines == ["secret server: copied from the example (not set: APP_SECRET)"])
  }

  @Test func missingValueFailsWhenPrivateIsRequired() async throws {
    let repo = try repository()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(
        offlineFetcher(log: FetchLog()), mode: .requirePrivate, environment: ["APP_SECRET": ""]
      ).run(AssetsConfig(secrets: [spec]))
    }
    #expect(error == .secretValuesMissing(secret: "server", variables: ["APP_SECRET"]))
    #expect(repo.read("Config/Secrets.swift") == nil)
  }

  @Test func valueNeverAppearsInEventsOrErrors() async throws {
    let repo = try repository()
    try repo.write("Config/Secrets.swift.template", "let a = \"{{SECRET}}\"\nlet b = \"{{OTHER}}\"\n")
    let events = EventLog()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(
        offlineFetcher(log: FetchLog()), environment: ["APP_SECRET": "hunter2"], onEvent: events.add
      ).run(AssetsConfig(secrets: [spec]))
    }
    #expect(error.description.contains("{{OTHER}}"))
    #expect(!error.description.contains("hunter2"))
    #expect(!events.lines.joined().contains("hunter2"))
  }
}
