import TestRunner
import Testing

@testable import Daemon

@Suite("failed-run reasons")
struct FailureReasonTests {
  @Test func reasonsNameTestsAndPackagesWithoutPointingAtTerminalOutput() {
    #expect(RunExecutor.reason(for: .testsFailed(count: 1, packages: ["."])) == "1 test failed in the root package")
    #expect(
      RunExecutor.reason(for: .testsFailed(count: 3, packages: [".", "Packages/Core"]))
        == "3 tests failed in the root package, Packages/Core")
    #expect(
      RunExecutor.reason(for: .buildFailed(packages: ["Packages/Server"])).hasPrefix("Packages/Server did not build"))
    #expect(RunExecutor.reason(for: .noTestsRan(package: ".", filter: "^(ATests)\\.")).contains("^(ATests)\\."))
  }
}
