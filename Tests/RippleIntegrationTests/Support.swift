import Foundation
import TestSupport
import Testing

/// A real git repository in a temp dir, removed when the test ends (the shared fixture).
typealias TestRepository = GitFixture

extension GitFixture {
  /// A new repository whose checkout folder is named `repo`. The manifest cache's key holds the checkout's folder
  /// name (a `.package(path:)` may name the root package by it), so with one name for every fixture the tests of a
  /// run share `RippleBinary.cacheDirectory`: a manifest another test already evaluated is read, not re-run through
  /// `swift package dump-package`. Tests about evaluation itself use a private cache (CachedPathTests).
  static func checkout() throws -> GitFixture { try GitFixture(folderName: "repo") }

  /// A repository made by `populate` and handed on between the tests of a serialized suite, with its build
  /// folders (`GitFixture.reused`), also in a checkout folder named `repo`.
  static func reused(_ slot: String, populate: (GitFixture) throws -> Void) throws -> GitFixture {
    try GitFixture.reused(slot, folderName: "repo", populate: populate)
  }
}

/// Runs argv (no shell) and captures both streams; with `check`, a non-zero exit throws.
@discardableResult
func run(_ argv: [String], in directory: String? = nil, environment: [String: String] = [:], check: Bool = true)
  throws -> CommandResult
{
  let result = try Command.run(
    argv, in: directory, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
  if check && result.status != 0 { throw CommandFailure(argv: argv, result: result) }
  return result
}

/// The `ripple` executable built next to the test bundle.
enum RippleBinary {
  static let path: String = {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("ripple").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      dir.deleteLastPathComponent()
    }
    return FileManager.default.currentDirectoryPath + "/.build/debug/ripple"
  }()

  /// A manifest cache shared by the tests of one run, so each manifest is evaluated once. Pass records are off
  /// (`RIPPLE_NO_CACHE_RESULTS`): fixtures of identical content would otherwise skip each other's tests;
  /// PassRecordTests turns them on with a cache of its own.
  static let cacheDirectory = RunFolder.path(prefix: "ripple-it-cache")

  /// `folder` as a cache folder of a test's own (its pass records, stat caches, folder digests) whose evaluated
  /// manifests are the run's shared ones: `folder/manifests` links to `cacheDirectory/manifests`. An evaluation is
  /// keyed by the manifest's bytes, package path, checkout folder name, environment and toolchain, so sharing it
  /// changes no answer and spares each test its manifest compiles (about a second each).
  static func privateCache(_ folder: String) -> String {
    let shared = cacheDirectory + "/manifests"
    try? FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try? FileManager.default.createSymbolicLink(atPath: folder + "/manifests", withDestinationPath: shared)
    return folder
  }

  static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws
    -> CommandResult
  {
    try RippleIntegrationTests.run(
      [path] + arguments, in: directory,
      environment: ["RIPPLE_CACHE_DIR": cacheDirectory, "NO_COLOR": "1", "RIPPLE_NO_CACHE_RESULTS": "1"]
        .merging(environment) { $1 }, check: false)
  }

  /// `ripple test ARGUMENTS -- <the shared module cache>`, for runs that build fixtures with the real toolchain:
  /// they pass TestSupport's `SharedModuleCache.swiftArguments` after `--`, as a user passes build arguments.
  static func test(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws
    -> CommandResult
  {
    try run(["test"] + testArguments(arguments), in: directory, environment: environment)
  }

  /// `arguments` with the shared module cache's build arguments after `--`.
  static func testArguments(_ arguments: [String]) -> [String] {
    arguments + (arguments.contains("--") ? [] : ["--"]) + SharedModuleCache.swiftArguments
  }

  /// `ripple affected --format json` → the test targets as "package:Name", asserting exit 0.
  static func affectedTests(_ arguments: [String], in directory: String) throws -> (
    tests: [String], json: [String: Any]
  ) {
    let result = try run(["affected", "--format", "json"] + arguments, in: directory)
    guard result.status == 0 else { throw CommandFailure(argv: ["ripple", "affected"] + arguments, result: result) }
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let tests = try #require(json["testTargets"] as? [[String: Any]])
    return (tests.map { "\($0["package"] as? String ?? "?"):\($0["name"] as? String ?? "?")" }.sorted(), json)
  }
}
