import Foundation
import RippleCore
import TestSupport
import Testing

@testable import RippleKit

/// `ripple init` writes only inside the repository: never through a committed link (docs/DESIGN.md,
/// "ripple init").
@Suite struct InitLinkTests {
  static func repository() throws -> (GitFixture, TemporaryDirectory) {
    let repository = try GitFixture()
    try repository.write(
      "Package.swift", "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"P\")\n")
    let outside = try TemporaryDirectory(prefix: "ripple-outside")
    return (repository, outside)
  }

  @Test func aLinkedGithubFolderIsRefusedAndNothingIsWrittenOutside() throws {
    let (repository, outside) = try Self.repository()
    try FileManager.default.createSymbolicLink(atPath: repository.path(".github"), withDestinationPath: outside.path)
    try repository.commitAll("init")
    let workspace = try Workspace.open(directory: repository.root, services: .failing)
    let plan = try workspace.planInit(ci: .github)
    let error = #expect(throws: InitError.self) { try workspace.applyInit(plan) }
    #expect(error?.category == .usage)
    #expect(error?.description.contains(".github") == true, "\(String(describing: error))")
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing written outside")
    #expect(!FileManager.default.fileExists(atPath: repository.path("ripple.yml")), "all or nothing")
  }

  @Test func aDryRunNeverReadsThroughALinkedGitignore() throws {
    let (repository, outside) = try Self.repository()
    let secret = outside.path + "/secret.txt"
    try "TOP-SECRET-LINE\n".write(toFile: secret, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: repository.path(".gitignore"), withDestinationPath: secret)
    try repository.commitAll("init")
    let workspace = try Workspace.open(directory: repository.root, services: .failing)
    let plan = try workspace.planInit(ci: nil)
    for change in plan.changes {
      #expect(!(change.old ?? "").contains("TOP-SECRET") && !change.new.contains("TOP-SECRET"), "\(change.path)")
    }
    if plan.changes.contains(where: { $0.path == ".gitignore" }) {
      #expect(throws: InitError.self) { try workspace.applyInit(plan) }
    }
    #expect(try String(contentsOfFile: secret, encoding: .utf8) == "TOP-SECRET-LINE\n", "the outside file is untouched")
  }
}
