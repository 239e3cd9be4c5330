import Foundation
import RippleCore
import RippleKit
import RunModel
import SchedulerCore
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

/// Issue 39, item 3: a branch's `file:` asset sources read only its repository and the folders rippled.yml lists,
/// through the real executor, the real bootstrap and the live fetcher.
@Suite struct FileAssetConfinementTests {
  /// A file of the operator's (rippled's token), outside the repository, with its SHA-256.
  final class Secret: Sendable {
    let folder: String
    let path: String
    let contents = "rippled-api-token-5f1e2d3c4b5a"
    let sha256: String

    init() throws {
      folder = try TemporaryDirectory.make(prefix: "ripple-operator")
      path = folder + "/api-token"
      try contents.write(toFile: path, atomically: true, encoding: .utf8)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
      process.arguments = [path]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      process.waitUntilExit()
      sha256 = String(decoding: output.fileHandleForReading.readDataToEndOfFile().prefix(64), as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
  }

  static func rippleYML(source: String, sha256: String) -> String {
    """
    assets:
      - id: token
        source: {file: "\(source)"}
        sha256: "\(sha256)"
        destination: Stolen

    """
  }

  /// Runs the fixture's head with `rippleYML` (and `extra` files committed), logging into a file.
  static func run(
    _ rippleYML: String, extra: (GitFixture) throws -> Void = { _ in }, assetFolders: [String] = []
  ) async throws -> (outcome: RunOutcome, log: String, fixture: DaemonRunFixture) {
    let fixture = try DaemonRunFixture(rippleYML: rippleYML, prepare: extra)
    fixture.process.on(.command("git"), .delegate(to: .live))  // bootstrap's own git queries
    var settings = fixture.settings
    settings.assetFolders = assetFolders
    var executor = fixture.executor
    executor.services.makeFetcher = BootstrapJob.liveFetcher
    let run = try fixture.runningRun()
    let logPath = fixture.folder + "/run.log"
    let logFile = try RunLogFile(path: logPath, limit: 1 << 20) { _ in }
    let outcome = await executor.execute(run, settings: settings, logFile: logFile)
    return (outcome, (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "", fixture)
  }

  /// Every file under `folder` that holds `text` (symbolic links are not followed: a committed link is no copy).
  static func files(under folder: String, holding text: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var found: [String] = []
    while let name = enumerator?.nextObject() as? String {
      let path = folder + "/" + name
      let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
      if type == .typeSymbolicLink { continue }
      if let data = FileManager.default.contents(atPath: path), String(decoding: data, as: UTF8.self).contains(text) {
        found.append(name)
      }
    }
    return found
  }

  @Test(arguments: ["absolute", "dot-dot", "symlink"])
  func aSourceLeadingOutOfTheRepositoryIsRefusedNamingTheAssetAndThePath(_ way: String) async throws {
    let secret = try Secret()
    let wrongSum = String(repeating: "0", count: 64)
    let source: String
    var extra: (GitFixture) throws -> Void = { _ in }
    switch way {
    case "absolute": source = secret.path
    case "dot-dot": source = "Assets/../../../../../../../../.." + secret.path
    default:
      source = "Assets/token"
      extra = { repository in
        try FileManager.default.createDirectory(
          atPath: repository.root + "/Assets", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
          atPath: repository.root + "/Assets/token", withDestinationPath: secret.path)
      }
    }
    let (outcome, log, fixture) = try await Self.run(Self.rippleYML(source: source, sha256: wrongSum), extra: extra)
    guard case .error(let message) = outcome else {
      Issue.record("\(way): expected an error, got \(outcome)\n\(log)")
      return
    }
    #expect(message.contains("asset `token`") && message.contains(source), "\(message)")
    #expect(message.contains("rippled refuses the file source"), "\(message)")
    #expect(!log.contains(secret.sha256) && !message.contains(secret.sha256), "no digest of it: \(log)")
    #expect(!log.contains("installing placeholders"), "never a placeholder: \(log)")
    #expect(Self.files(under: fixture.folder, holding: secret.contents).isEmpty, "nothing copied")
  }

  @Test func aSourceInAFolderTheOperatorListsIsInstalled() async throws {
    let secret = try Secret()
    let (outcome, log, fixture) = try await Self.run(
      Self.rippleYML(source: secret.path, sha256: secret.sha256), assetFolders: [secret.folder])
    #expect(outcome == .passed(nil), "\(log)")
    #expect(log.contains("bootstrap: token: installed (downloaded)"), "sentences in the run log: \(log)")
    #expect(!log.contains("Assets.") && !log.contains("AssetReport"), "no Swift dumps: \(log)")
    #expect(!Self.files(under: fixture.paths.cache, holding: secret.contents).isEmpty, "installed in the work tree")
  }
}
