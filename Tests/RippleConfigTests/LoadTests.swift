import ConfigLoading
import Foundation
import RippleConfig
import Testing

/// A temporary directory removed when the test ends.
private final class TemporaryDirectory {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "ripple-config-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func write(_ relative: String, _ text: String) throws {
    let url = URL(fileURLWithPath: path + "/" + relative)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }
}

@Suite("ripple.yml lookup")
struct LoadTests {
  @Test func withoutAConfigFileTheDefaultsApply() throws {
    let repo = try TemporaryDirectory()
    let config = try ConfigLoader.load(repoRoot: repo.path, explicitPath: nil)
    #expect(config == RippleConfiguration())
    #expect(config.sourcePath == nil)
  }

  @Test func lookupOrderIsRippleYmlThenDotRippleYmlThenConfigDir() throws {
    let repo = try TemporaryDirectory()
    try repo.write("Config/ripple.yml", "selection: {unowned: ignore}\n")
    #expect(
      try ConfigLoader.load(repoRoot: repo.path, explicitPath: nil).sourcePath == repo.path + "/Config/ripple.yml")
    try repo.write(".ripple.yml", "selection: {global: [Makefile]}\n")
    let hidden = try ConfigLoader.load(repoRoot: repo.path, explicitPath: nil)
    #expect(hidden.sourcePath == repo.path + "/.ripple.yml")
    #expect(hidden.selection.global.map(\.pattern) == ["Makefile"])
    try repo.write("ripple.yml", "")
    #expect(try ConfigLoader.load(repoRoot: repo.path, explicitPath: nil).sourcePath == repo.path + "/ripple.yml")
  }

  @Test func explicitPathWinsAndMustExist() throws {
    let repo = try TemporaryDirectory()
    try repo.write("ripple.yml", "")
    try repo.write("ci/ripple.yml", "selection: {unowned: ignore}\n")
    let explicit = try ConfigLoader.load(repoRoot: repo.path, explicitPath: repo.path + "/ci/ripple.yml")
    #expect(explicit.selection.unowned == .ignore)
    let missing = repo.path + "/nope.yml"
    #expect(throws: ConfigError.self) { try ConfigLoader.load(repoRoot: repo.path, explicitPath: missing) }
    do {
      _ = try ConfigLoader.load(repoRoot: repo.path, explicitPath: missing)
    } catch let error as ConfigError {
      #expect(error.description == "\(missing): config file not found (check the path given to --config)")
    }
  }

  @Test func errorsInAFoundFileNameThatFile() throws {
    let repo = try TemporaryDirectory()
    try repo.write(".ripple.yml", "selection:\n  unowned: maybe\n")
    do {
      _ = try ConfigLoader.load(repoRoot: repo.path, explicitPath: nil)
      Issue.record("expected an error")
    } catch let error as ConfigError {
      #expect(error.file == repo.path + "/.ripple.yml")
      #expect(error.line == 2)
    }
  }
}
