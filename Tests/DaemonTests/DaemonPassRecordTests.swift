import Crypto
import Foundation
import RippleConfig
import RippleCore
import RunModel
import RunStore
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

/// rippled's own runs with `records:`: a second run of the same content skips what passed, in its store.
@Suite struct DaemonPassRecordTests {
  private func executor(_ fixture: DaemonRunFixture, signingKey: String?) -> RunExecutor {
    let records = DaemonPassRecords(signingKey: signingKey, maxBytes: 1 << 20)
    var executor = fixture.executor
    executor.passRecords = records
    let client = records.client(fixture.store)
    executor.services.makeResultStore = { _, _, _ in client }
    return executor
  }

  @Test func aProtectedBranchsSecondRunOfTheSameContentBuildsNothingAndSaysWhy() async throws {
    let fixture = try DaemonRunFixture()
    let key = Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString()
    let executor = executor(fixture, signingKey: key)

    let first = try fixture.runningRun()
    #expect(await executor.execute(first, settings: fixture.settings, logFile: nil) == .passed(nil))
    _ = try fixture.store.finish(first.id, state: .failed, reason: "not a passing base: the second run tests all again")
    // CoreTests' record, the run's slot of the shared history (timings, greens) beside it, and that write's
    // marker (a replayed slot's tell).
    #expect(try fixture.store.passRecordUsage().count == 3, "CoreTests passed: its record is kept")

    let second = try fixture.runningRun()
    #expect(await executor.execute(second, settings: fixture.settings, logFile: nil) == .passed(nil))
    #expect(fixture.process.requests(matching: .command("swift", "build")).count == 1, "nothing built the second time")
    let targets = try #require(try fixture.store.detail(second.id)?.analysis?.targets)
    let core = try #require(targets.first { $0.name == "CoreTests" })
    #expect(core.status == .cached)
    // Where it passed is a note, apart from failures (the page and the API list it so: issue 52).
    #expect(core.failures.isEmpty, "\(core.failures)")
    #expect(core.note?.contains("passed at this content in rippled run \(first.id) of main") == true)
    #expect(core.note?.contains("signed by rippled") == true, "\(core.note ?? "")")
  }

  @Test func aSigningKeyFileThatIsNoKeyStopsRippledNamingIt() throws {
    let folder = NSTemporaryDirectory() + "ripple-records-key-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: folder + "/signing.key"))
    var settings = RecordsSettings(signingKeyFile: folder + "/signing.key")
    settings.enabled = true
    #expect {
      try DaemonPassRecords.load(settings)
    } throws: { error in
      "\(error)".contains(folder + "/signing.key") && "\(error)".contains("records.signingKeyFile")
    }
    settings.enabled = false
    #expect(try DaemonPassRecords.load(settings) == nil, "no records: section, no key read")
  }

  @Test func withoutTheSigningKeyAProtectedBranchBelievesNoneOfItsOwnRecords() async throws {
    let fixture = try DaemonRunFixture()
    let executor = executor(fixture, signingKey: nil)
    for _ in 1...2 {
      let run = try fixture.runningRun()
      #expect(await executor.execute(run, settings: fixture.settings, logFile: nil) == .passed(nil))
      _ = try fixture.store.finish(run.id, state: .failed, reason: "not a passing base")
    }
    #expect(fixture.process.requests(matching: .command("swift", "build")).count == 2, "unsigned: tested again")
  }
}
