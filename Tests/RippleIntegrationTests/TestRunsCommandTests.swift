import Foundation
import TestSupport
import Testing

/// `test.runs` for real: a package shaped like the reference user's, whose manifest adds client targets
/// (which do not compile on Linux) only when `TEST_SERVER` is unset and server targets only when it is set.
/// On Linux the server run builds and tests with `TEST_SERVER=1`; the client tests are named, not dropped.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct TestRunsCommandTests {
  static func shop() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:5.9
      import Foundation
      import PackageDescription

      var targets: [Target] = [
        .target(name: "Core"),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
      ]
      if ProcessInfo.processInfo.environment["TEST_SERVER"] == nil {
        targets += [
          .target(name: "Client", dependencies: ["Core"]),
          .testTarget(name: "ClientTests", dependencies: ["Client"]),
        ]
      } else {
        targets += [
          .target(name: "Server", dependencies: ["Core"]),
          .testTarget(name: "ServerTests", dependencies: ["Server"]),
        ]
      }
      let package = Package(name: "Shop", targets: targets)

      """)
    try repo.write("Sources/Core/Core.swift", "public let price = 3\n")
    try repo.write(
      "Sources/Client/Client.swift",
      "#if os(Linux)\n#error(\"the client is for Apple platforms only\")\n#endif\nimport Core\npublic let shown = price\n"
    )
    try repo.write("Sources/Server/Server.swift", "import Core\npublic let charged = price * 2\n")
    for (name, module, value) in [
      ("Core", "Core", "price == 3"), ("Client", "Client", "shown == 3"), ("Server", "Server", "charged == 6"),
    ] {
      try repo.write(
        "Tests/\(name)Tests/\(name)Tests.swift",
        "import \(module)\nimport Testing\n\n@Test func value() { #expect(\(value)) }\n")
    }
    try repo.write(
      "ripple.yml",
      """
      test:
        runs:
          - name: server
            environment: {TEST_SERVER: "1"}
            platforms: [linux]
          - name: client
            platforms: [macos]

      """)
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("Initial import")
    return repo
  }

  @Test func theServerRunRunsForRealAndTheClientTestsAreNamed() throws {
    #if os(Linux)
      let repo = try Self.shop()
      // The plan: the server run's commands with its variable; the client tests named with the reason.
      let dryRun = try RippleBinary.run(["test", "--all", "--dry-run"], in: repo.root)
      #expect(dryRun.status == 0, "\(dryRun.standardError)")
      #expect(dryRun.standardOutput.contains("TEST_SERVER=1 swift build --build-tests"), "\(dryRun.standardOutput)")
      #expect(
        dryRun.standardOutput.contains(
          "not run on linux: ClientTests (exists only in run `client`, platforms: macos)"))

      let planJSON = try RippleBinary.run(["test", "--all", "--dry-run", "--format", "json"], in: repo.root)
      let plan = try #require(
        try JSONSerialization.jsonObject(with: Data(planJSON.standardOutput.utf8)) as? [String: Any])
      let runs = try #require(plan["runs"] as? [[String: Any]])
      #expect(runs.map { $0["name"] as? String } == ["server"])
      #expect(runs.first?["environment"] as? [String: String] == ["TEST_SERVER": "1"])
      #expect(runs.first?["testTargets"] as? [String] == ["CoreTests", "ServerTests"])
      let notRunHere = try #require(plan["notRunHere"] as? [[String: Any]])
      #expect(notRunHere.map { $0["name"] as? String } == ["ClientTests"])

      // The real run: Client would not compile on Linux, so only the server graph may be built.
      let report = repo.root + "/out/report.json"
      let junit = repo.root + "/out/junit.xml"
      let run = try RippleBinary.test(["--all", "--report-json", report, "--junit", junit], in: repo.root)
      #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
      #expect(run.standardOutput.contains("not run on linux: ClientTests"))
      let result = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
      let packages = try #require(result["packages"] as? [[String: Any]])
      #expect(packages.map { $0["run"] as? String } == ["server"])
      let targets = (packages.first?["targets"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
      #expect(targets.sorted() == ["CoreTests", "ServerTests"])
      #expect((result["totals"] as? [String: Any])?["passed"] as? Int == 2)
      #expect((result["notRunHere"] as? [[String: Any]])?.first?["name"] as? String == "ClientTests")
      let xml = try String(contentsOfFile: junit, encoding: .utf8)
      #expect(xml.contains("<skipped message=\"not run on linux: ClientTests"))

      // --require-all: the same run fails because a selected target cannot run here.
      let strict = try RippleBinary.test(["--all", "--require-all"], in: repo.root)
      #expect(strict.status == 1)
      #expect(strict.standardError.contains("ClientTests"), "\(strict.standardError)")
    #endif
  }

  @Test func aChangeToAServerOnlyTargetSelectsItInTheServerRun() throws {
    let repo = try Self.shop()
    try repo.append("Sources/Server/Server.swift", "public let refunded = 0\n")
    let planJSON = try RippleBinary.run(["test", "--base", "main", "--dry-run", "--format", "json"], in: repo.root)
    #expect(planJSON.status == 0, "\(planJSON.standardError)")
    let plan = try #require(
      try JSONSerialization.jsonObject(with: Data(planJSON.standardOutput.utf8)) as? [String: Any])
    let runs = try #require(plan["runs"] as? [[String: Any]])
    #expect(runs.count == 1)
    #expect(runs.first?["testTargets"] as? [String] == ["ServerTests"])
    #expect(runs.first?["name"] as? String == "server")
    #expect((plan["notRunHere"] as? [Any])?.isEmpty == true)
  }

  @Test func aRequiredCheckThatIsNotFoundIsAConfigErrorWithItsLine() throws {
    let repo = try Self.shop()
    try repo.append(
      "ripple.yml", "  requires:\n    - name: database\n      command: [ripple-no-such-checker, --quiet]\n")
    let run = try RippleBinary.run(["test", "--all"], in: repo.root)
    #expect(run.status == 2)
    #expect(run.standardError.contains("ripple.yml:9:"), "\(run.standardError)")
    #expect(run.standardError.contains("`ripple-no-such-checker`, which was not found"))
  }

  @Test func aFailingRequiredCheckStopsTheRunBeforeBuilding() throws {
    let repo = try Self.shop()
    try repo.append(
      "ripple.yml", "  requires:\n    - name: database\n      command: [/bin/sh, -c, \"echo down >&2; exit 3\"]\n")
    let run = try RippleBinary.run(["test", "--all"], in: repo.root)
    #expect(run.status == 3)
    #expect(run.standardError.contains("the check `database`"), "\(run.standardError)")
    #expect(run.standardError.contains("down"))
    #expect(!FileManager.default.fileExists(atPath: repo.root + "/.build/debug"), "nothing was built")
  }

  @Test func doctorChecksTheRunsOfThisPlatformAndTheirEnvironments() throws {
    #if os(Linux)
      let repo = try Self.shop()
      let fine = try RippleBinary.run(["doctor"], in: repo.root)
      #expect(fine.status == 0, "\(fine.standardOutput)")
      #expect(fine.standardOutput.contains("✓ test runs: on linux: server"))
      #expect(fine.standardOutput.contains("✓ manifests: 1 package evaluate in default, TEST_SERVER=1"))

      try repo.write("ripple.yml", "test:\n  runs:\n    - name: client\n      platforms: [macos]\n")
      let none = try RippleBinary.run(["doctor"], in: repo.root)
      #expect(none.status == 1)
      #expect(none.standardOutput.contains("✗ test runs: no test run is for linux"))
      #expect(none.standardOutput.contains("fix: add linux to the platforms of a run in test.runs"))
    #endif
  }
}
