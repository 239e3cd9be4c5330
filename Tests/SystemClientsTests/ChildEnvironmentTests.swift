import Foundation
import RippleCore
import SystemClients
import Testing

/// Ripple's secrets (the signing key, a store's credentials) never reach a process it starts.
@Suite struct ChildEnvironmentTests {
  @Test func scrubbingRemovesEveryNamedVariableInheritedOrSetByTheRequest() {
    let requested: [String: String?] = ["TMPDIR": "/t", "TOKEN": "set by a generate: list", "GONE": nil]
    let scrubbed = ChildEnvironment.scrubbed(requested, removing: ["TOKEN", "RIPPLE_RESULT_SIGNING_KEY"])
    #expect(scrubbed["TMPDIR"] == .some("/t"))
    #expect(scrubbed["TOKEN"] == .some(nil), "removed, not just left unset")
    #expect(scrubbed["RIPPLE_RESULT_SIGNING_KEY"] == .some(nil), "an inherited variable is removed too")
    #expect(scrubbed["GONE"] == .some(nil))
    #expect(
      ChildEnvironment.scrubbed(
        ["A": "1", "RIPPLE_RESULT_SIGNING_KEY": "k"], removing: ChildEnvironment.defaultSecretNames)
        == ["A": "1"])
  }

  @Test func theDefaultIsTheSigningKeysVariable() {
    #expect(ChildEnvironment.defaultSecretNames == ["RIPPLE_RESULT_SIGNING_KEY"])
  }

  @Test func aWithholdingClientScrubsEveryRequestItRunsOrStreams() async throws {
    let seen = Locked<[ProcessRequest]>([])
    let base = ProcessClient { request in
      seen.withLock { $0.append(request) }
      return ProcessResult(request: request, exitStatus: 0, standardOutput: Data(), standardError: Data())
    }
    let client = base.withholding(["SECRET"])
    _ = try await client.run(ProcessRequest("swift", ["build"], environment: ["SECRET": "x", "KEEP": "y"]))
    _ = try await client.runStreaming(ProcessRequest("swift", ["test"])) { _ in }
    let requests = seen.withLock { $0 }
    #expect(requests.count == 2)
    #expect(requests.allSatisfy { $0.environment["SECRET"] == .some(nil) })
    #expect(requests[0].environment["KEEP"] == .some("y"))
  }

  @Test func aLiveChildNeverSeesAWithheldVariable() async throws {
    let result = try await ProcessClient.live.withholding(["RIPPLE_IT_WITHHELD"]).run(
      ProcessRequest(
        "/usr/bin/env", [], environment: ["RIPPLE_IT_WITHHELD": "the-secret", "RIPPLE_IT_KEPT": "visible"]))
    #expect(result.succeeded)
    #expect(!result.outputString.contains("the-secret"), "\(result.outputString)")
    #expect(result.outputString.contains("RIPPLE_IT_KEPT=visible"))
  }
}
