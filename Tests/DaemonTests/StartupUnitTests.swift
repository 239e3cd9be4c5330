import Foundation
import RippleCore
import RunModel
import RunStore
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonHTTP
@testable import DaemonSupport

@Suite("commit ids, leftovers of killed runs, the store-read guard, the ready latch")
struct StartupUnitTests {
  @Test func aCommitIDIsFortyASCIIHexDigitsOnly() {
    #expect(RunsAPIRoutes.isFullCommitID(String(repeating: "a1", count: 20)))
    #expect(RunsAPIRoutes.isFullCommitID(String(repeating: "F0", count: 20)))
    #expect(!RunsAPIRoutes.isFullCommitID(String(repeating: "\u{FF11}", count: 40)), "full-width digits")
    #expect(!RunsAPIRoutes.isFullCommitID(String(repeating: "\u{FF41}", count: 40)), "full-width letters")
    #expect(!RunsAPIRoutes.isFullCommitID(String(repeating: "a", count: 39)))
    #expect(!RunsAPIRoutes.isFullCommitID(String(repeating: "a", count: 41)))
    #expect(!RunsAPIRoutes.isFullCommitID(String(repeating: "g", count: 40)))
    #expect(!RunsAPIRoutes.isFullCommitID(""))
  }

  @Test func aFailedStoreReadMakesTheDaemonUnhealthyAndAnswers503() throws {
    let health = HealthBoard()
    let lines = Locked<[String]>([])
    let log = DaemonLog(minimum: .debug) { line in lines.withLock { $0.append(line) } }
    #expect(try HTTPAPI.storeRead(health: health, log: log) { 7 } == 7)
    #expect(health.isHealthy)
    for _ in 0..<2 {
      #expect(throws: (any Error).self) {
        try HTTPAPI.storeRead(health: health, log: log) { () throws -> Int in
          throw RunStoreError.corrupt(path: "/state/rippled.sqlite", message: "database disk image is malformed")
        }
      }
    }
    #expect(!health.isHealthy)
    #expect(health.current.first?.contains("/state/rippled.sqlite") == true)
    #expect(lines.withLock { $0.count } == 1, "logged once, not once per request")
  }

  @Test func theLatchLetsWaitersThroughOnceOpenAndCancelledOnesOut() async {
    let latch = Latch()
    let cancelled = Task { await latch.wait() }
    cancelled.cancel()
    #expect(await cancelled.value == false)
    let waiting = Task { await latch.wait() }
    #expect(await DaemonRunFixture.waitFor("the task to wait") { latch.waiting == 1 }, "it waits on the closed latch")
    latch.open()
    #expect(await waiting.value == true)
    #expect(await latch.wait() == true)
  }

  @Test func anAddedEnvironmentVariableReachesRequestsThatDoNotSetIt() async throws {
    let base = ScriptedProcess().on(.command("swift", "build"), .exit(0))
    let client = base.client.adding(environment: ["TMPDIR": "/private/run-1"])
    _ = try await client.run(.init("swift", ["build"]))
    #expect(base.requests.last?.environment["TMPDIR"] == "/private/run-1")
    _ = try await client.run(.init("swift", ["build"], environment: ["TMPDIR": "/own"]))
    #expect(base.requests.last?.environment["TMPDIR"] == "/own")
  }
}
