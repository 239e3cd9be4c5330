import Foundation
import TestSupport
import Testing

/// The signing key and the store's credentials never reach a process `ripple test` starts: the manifest's
/// evaluation, `swift build`, `swift test list` and the tests themselves (docs/DESIGN.md, "Secrets and child
/// processes").
@Suite(.serialized, .exclusive(.cooperativeThread)) struct ChildSecretsCommandTests {
  static let secrets = [
    "RIPPLE_RESULT_SIGNING_KEY": "c2lnbmluZy1rZXktdmFsdWUtZm9yLXRoZS10ZXN0LTEyMw==",
    "AWS_ACCESS_KEY_ID": "aws-access-key-4711",
    "AWS_SECRET_ACCESS_KEY": "aws-secret-value-0815",
  ]

  @Test func aTestThatPrintsItsEnvironmentSeesNoSecret() throws {
    let repo = try TestRepository.checkout()
    let names = Self.secrets.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:6.0
      import PackageDescription

      for name in [\(names)] where Context.environment[name] != nil {
        fatalError("the manifest's evaluation sees \\(name)")
      }
      let package = Package(name: "Leak", targets: [.target(name: "Leak"), .testTarget(name: "LeakTests", dependencies: ["Leak"])])

      """)
    try repo.write("Sources/Leak/Leak.swift", "public let leak = 1\n")
    try repo.write(
      "Tests/LeakTests/LeakTests.swift",
      """
      import Foundation
      import Testing

      @Test func printsItsEnvironment() throws {
        let environment = ProcessInfo.processInfo.environment
        let text = environment.sorted { $0.key < $1.key }.map { "\\($0.key)=\\($0.value)" }.joined(separator: "\\n")
        print(text)
        if let path = environment["RIPPLE_IT_ENVIRONMENT_DUMP"] {
          try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        for name in [\(names)] {
          #expect(environment[name] == nil, "\\(name) reached the test")
        }
      }

      """)
    try repo.write(
      "ripple.yml",
      """
      test:
        resultCache:
          store: s3://records/ci
          region: eu-west-1
          endpoint: http://127.0.0.1:9

      """)
    try repo.commitAll("init")
    let dump = repo.root + "/.build/environment.txt"
    let environment = Self.secrets.merging([
      "RIPPLE_IT_ENVIRONMENT_DUMP": dump, "RIPPLE_CACHE_DIR": repo.root + "/.build/ripple-cache",
    ]) { $1 }
    let result = try RippleBinary.test(["--all"], in: repo.root, environment: environment)
    let output = result.standardOutput + result.standardError
    #expect(result.status == 0, "\(output)")
    let printed = try String(contentsOfFile: dump, encoding: .utf8)
    #expect(printed.contains("RIPPLE_IT_ENVIRONMENT_DUMP="), "the test ran and printed its environment")
    for (name, value) in Self.secrets {
      #expect(!printed.contains(name + "=") && !printed.contains(value), "\(name) reached the test")
      #expect(!output.contains(value), "\(name)'s value is in ripple's output")
    }
  }
}
