import Foundation
import TestSupport
import Testing

/// `ripple bootstrap` end to end: the real binary, a real archive, a package that must build both with
/// the placeholders (no access) and with the real assets, and a generated secrets file.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct BootstrapCommandTests {
  /// The repository, and the private assets outside it (removed with the fixture).
  final class Fixture {
    let repo: TestRepository
    let archiveSHA: String
    let assetsDirectory: String

    init(repo: TestRepository, archiveSHA: String, assetsDirectory: String) {
      self.repo = repo
      self.archiveSHA = archiveSHA
      self.assetsDirectory = assetsDirectory
    }

    deinit { try? FileManager.default.removeItem(atPath: assetsDirectory) }
  }

  static func make() throws -> Fixture {
    let repo = try TestRepository.checkout()
    // The private asset lives outside the repository, like a download would.
    let assets = repo.root + "/../" + URL(fileURLWithPath: repo.root).lastPathComponent + "-assets"
    try FileManager.default.createDirectory(atPath: assets + "/fonts", withIntermediateDirectories: true)
    try Data("font A".utf8).write(to: URL(fileURLWithPath: assets + "/fonts/A.otf"))
    try Data("font B".utf8).write(to: URL(fileURLWithPath: assets + "/fonts/B.otf"))
    try run(["/bin/tar", "-czf", assets + "/fonts.tar.gz", "-C", assets, "fonts"])
    let sha = try run(["/usr/bin/sha256sum", assets + "/fonts.tar.gz"]).standardOutput.prefix(64)

    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "Styleguide",
        targets: [.target(name: "Styleguide", resources: [.copy("Fonts")])]
      )

      """)
    try repo.write(
      "Sources/Styleguide/Styleguide.swift",
      "import Foundation\n\npublic let fonts = Bundle.module.url(forResource: \"Fonts\", withExtension: nil)\n")
    try repo.write("Config/Secrets.swift.template", "let secret = \"{{SECRET}}\"\n")
    try repo.write("Config/Secrets.swift.example", "let secret = \"example\"\n")
    try repo.write(".gitignore", ".build/\nSources/Styleguide/Fonts/\nSources/Styleguide/Secrets.swift\n")
    try repo.write(
      "ripple.yml",
      """
      assets:
        - id: fonts
          source: {file: "\(assets)/fonts.tar.gz"}
          sha256: "\(sha)"
          archive: {format: tar.gz, stripComponents: 1}
          destination: Sources/Styleguide/Fonts
          placeholders: [{path: empty.otf}]
      secrets:
        - id: secrets
          template: Config/Secrets.swift.template
          output: Sources/Styleguide/Secrets.swift
          values: {SECRET: RIPPLE_TEST_SECRET}
          example: Config/Secrets.swift.example

      """)
    try repo.commitAll("Initial import")
    return Fixture(repo: repo, archiveSHA: String(sha), assetsDirectory: assets)
  }

  func files(_ repo: TestRepository, _ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: repo.root + "/" + folder)) ?? []).sorted()
  }

  @Test func placeholdersThenRealAssetsAndBothBuild() throws {
    let fixture = try Self.make()
    let repo = fixture.repo
    let scratch = ["--scratch-path", repo.root + "/.build/swift"]
    // SwiftPM and the driver leave `TemporaryDirectory.*` folders in TMPDIR: give them one that goes with the repo.
    let swiftTemporary = repo.root + "/.build/tmp"
    try FileManager.default.createDirectory(atPath: swiftTemporary, withIntermediateDirectories: true)
    let build =
      ["/usr/bin/env", "TMPDIR=\(swiftTemporary)", "swift", "build"] + scratch + SharedModuleCache.swiftArguments

    let publicRun = try RippleBinary.run(["bootstrap", "--public"], in: repo.root)
    #expect(publicRun.status == 0, "\(publicRun.standardOutput)\(publicRun.standardError)")
    #expect(files(repo, "Sources/Styleguide/Fonts") == ["empty.otf"])
    #expect(
      try String(contentsOfFile: repo.root + "/Sources/Styleguide/Secrets.swift", encoding: .utf8).contains("example"))
    try run(build, in: repo.root)

    let secret = "a\"b\\c\nd\\(x) é"
    let privateRun = try RippleBinary.run(["bootstrap"], in: repo.root, environment: ["RIPPLE_TEST_SECRET": secret])
    #expect(privateRun.status == 0, "\(privateRun.standardOutput)\(privateRun.standardError)")
    #expect(files(repo, "Sources/Styleguide/Fonts") == ["A.otf", "B.otf"], "the placeholder is replaced")
    let generated = repo.root + "/Sources/Styleguide/Secrets.swift"
    let mode = try FileManager.default.attributesOfItem(atPath: generated)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(!privateRun.standardOutput.contains("a\"b") && !privateRun.standardError.contains("a\"b"), "never logged")
    try run(build, in: repo.root)

    let again = try RippleBinary.run(["bootstrap"], in: repo.root, environment: ["RIPPLE_TEST_SECRET": secret])
    #expect(again.status == 0)
    #expect(again.standardOutput.contains("up to date"), "\(again.standardOutput)")
  }

  @Test func checksumMismatchFailsAndLeavesTheDestinationAlone() throws {
    let fixture = try Self.make()
    let repo = fixture.repo
    #expect(try RippleBinary.run(["bootstrap", "--public"], in: repo.root).status == 0)
    let config = try String(contentsOfFile: repo.root + "/ripple.yml", encoding: .utf8)
    try repo.write(
      "ripple.yml", config.replacingOccurrences(of: fixture.archiveSHA, with: String(repeating: "0", count: 64)))
    let result = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(result.status == 1, "\(result.standardError)")
    #expect(result.standardError.contains("fonts"))
    #expect(result.standardError.lowercased().contains("sha256") || result.standardError.contains("checksum"))
    #expect(files(repo, "Sources/Styleguide/Fonts") == ["empty.otf"], "unchanged")
  }

  @Test func badConfigIsAUsageErrorBeforeAnythingIsTouched() throws {
    let fixture = try Self.make()
    let repo = fixture.repo
    let config = try String(contentsOfFile: repo.root + "/ripple.yml", encoding: .utf8)
    try repo.write("ripple.yml", config.replacingOccurrences(of: "Sources/Styleguide/Fonts", with: "../outside"))
    let result = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(result.status == 2, "\(result.standardError)")
    #expect(result.standardError.contains("ripple.yml"))
    #expect(!FileManager.default.fileExists(atPath: repo.root + "/../outside"))
  }

  @Test func requirePrivateWithoutAccessIsAnEnvironmentError() throws {
    let fixture = try Self.make()
    let repo = fixture.repo
    let config = try String(contentsOfFile: repo.root + "/ripple.yml", encoding: .utf8)
    try repo.write(
      "ripple.yml",
      config.replacingOccurrences(
        of: "    source: {file: ", with: "    credentials: {bearerTokenEnv: RIPPLE_NO_SUCH_TOKEN}\n    source: {file: ")
    )
    let result = try RippleBinary.run(["bootstrap", "--require-private", "--offline"], in: repo.root)
    #expect(result.status == 3, "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: repo.root + "/Sources/Styleguide/Fonts/A.otf"))
  }
}
