import Foundation
import TestSupport
import Testing

/// Savings said like with like (issue 49), through the real binary with no store: a full `--all` run on any
/// branch measures the suite and claims no saving; a later selective run compares its tests with that run's.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct SavingsCommandTests {
  @Test func aFullRunMeasuresTheSuiteAndALaterRunComparesTestsWithTests() throws {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n  name: \"App\",\n"
        + "  targets: [\n    .target(name: \"Core\"), .target(name: \"Other\"),\n"
        + "    .testTarget(name: \"CoreTests\", dependencies: [\"Core\"]),\n"
        + "    .testTarget(name: \"OtherTests\", dependencies: [\"Other\"]),\n  ]\n)\n")
    try repo.write("Sources/Core/Core.swift", "public let core = 1\n")
    try repo.write("Sources/Other/Other.swift", "public let other = 1\n")
    try repo.write(
      "Tests/CoreTests/CoreTests.swift", "import Core\nimport Testing\n@Test func core() { #expect(Core.core == 1) }\n")
    try repo.write(
      "Tests/OtherTests/OtherTests.swift",
      "import Other\nimport Testing\n@Test func other() { #expect(Other.other == 1) }\n")
    try repo.write(".gitignore", ".build/\n")
    _ = try repo.commitAll("app")
    let env = [
      "RIPPLE_NO_CACHE_RESULTS": "1", "RIPPLE_BRANCH": "feature/x", "RIPPLE_CACHE_DIR": repo.root + "/.build/c",
    ]

    let first = try RippleBinary.test(["--all"], in: repo.root, environment: env)
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    #expect(
      first.standardOutput.contains("this run tested the whole suite: it saved nothing"), "\(first.standardOutput)")
    let second = try RippleBinary.test(["--all"], in: repo.root, environment: env)
    #expect(!second.standardOutput.contains("not known yet"), "the first --all measured it: \(second.standardOutput)")
    #expect(second.standardOutput.contains("it saved nothing"))

    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let selective = try RippleBinary.test([], in: repo.root, environment: env)
    #expect(selective.status == 0, "\(selective.standardOutput)\(selective.standardError)")
    #expect(selective.standardOutput.contains("the full suite's tests took"), "\(selective.standardOutput)")
    #expect(selective.standardOutput.contains("of test time saved (builds not compared"))
    #expect(!selective.standardOutput.contains("estimate"))
  }
}
